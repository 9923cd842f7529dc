/**
 * The isolate's leases (src/worker/limits/lease-book.ts) against a simulated SubjectGuard that answers with
 * the real ledger after an injected round trip, on fake time: one RPC for concurrent requests,
 * renewal ahead of need, leases that end before the SubjectGuard's, revocation and refusals
 * remembered, strict subjects, never over-admitting across isolates, and no 429 for a steady
 * client below its rate. Its ~15,000 fake timers are fast because the project's setup file made
 * vitest's clock so (support/fast-fake-clock.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { expectDefined } from "../../src/common/expect";
import type { Admission } from "../../src/worker/limits/admission";
import type { RatePolicy } from "../../src/worker/limits/gcra";
import { LeaseBook, type AdmissionContext } from "../../src/worker/limits/lease-book";
import { LEASE_MARGIN_MS, LEASE_TTL_MS } from "../../src/worker/limits/lease-protocol";
import { firstNonConforming, remainingAt, seeded, SimulatedGuard } from "./support/lease-simulation";

const LIVE = { rate: 100, burst: 100 };
const WIDE = { rate: 1000, burst: 1000 };

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(1_000_000);
});
afterEach(() => {
  vi.useRealTimers();
});

/** One simulated isolate: its own LeaseBook, talking to `guard`. */
function isolate(guard: SimulatedGuard) {
  const book = new LeaseBook();
  const ctx: AdmissionContext = { source: () => guard, policy: guard.policy, waitUntil: () => {} };
  return (subject = "key_live_test") => book.admit(subject, ctx);
}

interface Outcome {
  sentAt: number;
  doneAt: number;
  admission: Admission;
}

/** `count` requests, one every `intervalMs` from now, through `admit`; waits until all are answered. */
async function requests(admit: () => Promise<Admission>, count: number, intervalMs: number): Promise<Outcome[]> {
  const outcomes: Promise<Outcome>[] = [];
  for (let i = 0; i < count; i++) {
    outcomes.push(
      new Promise((resolve) =>
        setTimeout(() => {
          const sentAt = Date.now();
          void admit().then((admission) => resolve({ sentAt, doneAt: Date.now(), admission }));
        }, i * intervalMs),
      ),
    );
  }
  await vi.advanceTimersByTimeAsync(count * intervalMs + 5_000);
  return Promise.all(outcomes);
}

const verdicts = (outcomes: Outcome[]) => outcomes.map((o) => o.admission.verdict);
/** When admissions were actually made: in the isolate for leased ones, in the SubjectGuard for the others. */
const admittedAt = (outcomes: Outcome[], guards: SimulatedGuard[]) => [
  ...outcomes.filter((o) => o.admission.verdict === "allowed" && o.admission.leased).map((o) => o.doneAt),
  ...guards.flatMap((guard) => guard.directAdmissions),
];

describe("one RPC, then memory", () => {
  it("admits a subject's first request directly in the SubjectGuard, with its exact figures", async () => {
    const guard = new SimulatedGuard(LIVE);
    const outcomes = await requests(isolate(guard), 1, 1);
    expect(outcomes).toMatchObject([{ admission: { verdict: "allowed", leased: false, remaining: 99, resetMs: 10 } }]);
    expect(guard.requests).toMatchObject([{ direct: true }]);
  });

  it("a request awaits only its own RPC: while a lease is on its way the others ask the SubjectGuard directly, so a lease never caps throughput", async () => {
    const guard = new SimulatedGuard(LIVE, 20);
    const admit = isolate(guard);
    const all = Array.from({ length: 30 }, () => admit());
    await vi.advanceTimersByTimeAsync(200);
    const admissions = await Promise.all(all);
    expect(admissions.every((a) => a.verdict === "allowed")).toBe(true);
    // Cold: one lease, asked for by the first request the demand justified; the others admitted by the SubjectGuard.
    const [lease, ...others] = guard.requests.filter((r) => !r.direct);
    expect(others).toEqual([]);
    const leased = admissions.filter((a) => a.leased).length;
    expect(leased).toBeGreaterThan(0);
    expect(leased).toBeLessThanOrEqual(expectDefined(lease, "the one lease asked for").want);
    expect(guard.directAdmissions).toHaveLength(30 - leased);
  });

  it("serves a warm subject's concurrent requests from memory", async () => {
    const guard = new SimulatedGuard(LIVE, 20);
    const admit = isolate(guard);
    for (let i = 0; i < 60; i++) setTimeout(() => void admit(), i * 10);
    await vi.advanceTimersByTimeAsync(600);
    const asked = guard.requests.length;
    const burst = await Promise.all(Array.from({ length: 10 }, () => admit()));
    expect(burst.map((a) => a.verdict === "allowed" && a.leased)).toEqual(Array(10).fill(true));
    await vi.advanceTimersByTimeAsync(100);
    expect(guard.requests.length - asked).toBeLessThanOrEqual(1); // at most a renewal, in the background
  });

  it("renews ahead of need: a steady client at 200 requests/s waits for no RPC after its first half second, 150 ms from its SubjectGuard", {
    timeout: 30_000,
  }, async () => {
    const guard = new SimulatedGuard(WIDE, 150);
    const outcomes = await requests(isolate(guard), 1000, 5);
    expect(verdicts(outcomes).every((v) => v === "allowed")).toBe(true);
    const late = outcomes.filter((o) => o.sentAt >= 1_000_000 + 500);
    expect(late.filter((o) => o.doneAt > o.sentAt)).toEqual([]);
    // Far fewer RPCs than requests: about one per lease horizon once warm.
    expect(guard.requests.length).toBeLessThan(1000 / 10);
    expect(guard.requests.filter((r) => r.direct && r.finished.length === 0).length).toBeLessThan(80);
  });

  it("hands spent leases back with the next RPC", async () => {
    const guard = new SimulatedGuard(WIDE, 10);
    await requests(isolate(guard), 400, 5);
    const handedBack = guard.requests.flatMap((r) => r.finished);
    expect(handedBack.length).toBeGreaterThan(5);
    expect(handedBack.every((f) => f.unused === 0)).toBe(true);
  });
});

describe("a lease ends on this isolate before it ends in the SubjectGuard", () => {
  it("admits from a lease only until its sending + ttl − margin", async () => {
    const guard = new SimulatedGuard(WIDE, 100);
    const admit = isolate(guard);
    await requests(admit, 100, 2); // demand enough for leases
    const lastLease = guard.requests.filter((r) => !r.direct).length;
    expect(lastLease).toBeGreaterThan(0);
    const sent = guard.requests.length;
    // Nothing for a while: every lease this isolate holds was sent at least ttl − margin ago.
    await vi.advanceTimersByTimeAsync(LEASE_TTL_MS - LEASE_MARGIN_MS);
    expect(await requests(admit, 1, 1)).toMatchObject([{ admission: { verdict: "allowed" } }]);
    expect(guard.requests.length).toBe(sent + 1);
  });

  it("hands back unused a lease that arrives after its end, and has the waiter admitted directly", async () => {
    const guard = new SimulatedGuard(WIDE, LEASE_TTL_MS);
    const outcomes = await requests(isolate(guard), 3, 0);
    expect(verdicts(outcomes)).toEqual(["allowed", "allowed", "allowed"]);
    const lease = guard.requests.find((r) => !r.direct);
    expect(lease).toMatchObject({ want: 2 });
    expect(guard.requests.find((r) => r.finished.length > 0)).toMatchObject({
      direct: true,
      finished: [{ unused: 2 }],
    });
    expect(outcomes.every((o) => !o.admission.leased)).toBe(true);
  });
});

describe("refusals", () => {
  it("a revocation stops the isolate at once and for good: its leases are dropped, no RPC again", async () => {
    const guard = new SimulatedGuard(WIDE, 10);
    const admit = isolate(guard);
    await requests(admit, 100, 2);
    guard.revoked = true;
    const outcomes = await requests(admit, 200, 2);
    const firstRefused = verdicts(outcomes).indexOf("revoked");
    expect(
      verdicts(outcomes)
        .slice(firstRefused)
        .every((v) => v === "revoked"),
    ).toBe(true);
    const refusedAt = expectDefined(outcomes[firstRefused], "a revoked outcome").sentAt;
    expect(refusedAt - expectDefined(outcomes[0], "the first outcome").sentAt).toBeLessThan(LEASE_TTL_MS);
    const asked = guard.requests.length;
    await requests(admit, 5, 1);
    expect(guard.requests.length).toBe(asked);
  });

  it("remembers a 429 until its Retry-After: no RPC meanwhile", async () => {
    const guard = new SimulatedGuard({ rate: 1, burst: 1 });
    const admit = isolate(guard);
    const answered = async (admission: Promise<Admission>) => {
      await vi.advanceTimersByTimeAsync(0);
      return admission;
    };
    expect((await answered(admit())).verdict).toBe("allowed");
    const refused = await answered(admit());
    expect(refused.verdict).toBe("limited");
    expect(refused.retryAfterMs).toBeGreaterThan(990);
    const retryAt = Date.now() + refused.retryAfterMs;
    vi.setSystemTime(retryAt - 400);
    expect(await answered(admit())).toMatchObject({ verdict: "limited", retryAfterMs: 400 });
    expect(guard.requests).toHaveLength(2);
    vi.setSystemTime(retryAt);
    expect((await answered(admit())).verdict).toBe("allowed");
    expect(guard.requests).toHaveLength(3);
  });

  it("asks the SubjectGuard for every request of a strict subject, concurrently", async () => {
    const guard = new SimulatedGuard(WIDE, 20);
    guard.strict = true;
    const admit = isolate(guard);
    await requests(admit, 1, 1);
    const outcomes = await Promise.all([
      vi.advanceTimersByTimeAsync(100),
      ...Array.from({ length: 10 }, () => admit()),
    ]);
    expect(outcomes.slice(1)).toHaveLength(10);
    expect(guard.requests).toHaveLength(11);
    expect(guard.requests.every((r) => r.direct)).toBe(true);
  });
});

describe("RateLimit figures from a lease", () => {
  it.each([
    [LIVE, 12],
    [{ rate: 50, burst: 20 }, 25],
  ])(
    "%j, one request every %i ms: never more remaining than GCRA has, never whole too early",
    async (policy, interval) => {
      const guard = new SimulatedGuard(policy);
      const outcomes = await requests(isolate(guard), 200, interval);
      const admitted = admittedAt(outcomes, [guard]);
      const leased = outcomes.filter((o) => o.admission.leased);
      expect(leased.length).toBeGreaterThan(100);
      for (const { doneAt, admission } of leased) {
        expect(admission.remaining).toBeLessThanOrEqual(remainingAt(admitted, policy, doneAt));
        // Whole again only once every admission granted so far could have refilled.
        expect(admission.resetMs).toBeGreaterThanOrEqual(
          ((policy.burst - remainingAt(admitted, policy, doneAt)) * 1000) / policy.rate - 1,
        );
      }
    },
  );
});

describe("never over-admits, with several isolates against one SubjectGuard", () => {
  it.each([1, 2, 3])(
    "seed %i: 3 isolates with bursts of demand, 50 ms from the SubjectGuard",
    { timeout: 30_000 },
    async (seed) => {
      const policy = { rate: 200, burst: 40 };
      const guard = new SimulatedGuard(policy, 50);
      const random = seeded(seed);
      const isolates = [isolate(guard), isolate(guard), isolate(guard)];
      const all: Promise<Outcome>[] = [];
      for (let at = 0; at < 2_000; at += Math.floor(random() * 20)) {
        const admit = expectDefined(isolates[Math.floor(random() * 3)], "one of the 3 isolates");
        const burst = random() < 0.1 ? 30 : 1 + Math.floor(random() * 3);
        for (let n = 0; n < burst; n++) {
          all.push(
            new Promise((resolve) =>
              setTimeout(
                () => void admit().then((admission) => resolve({ sentAt: at, doneAt: Date.now(), admission })),
                at,
              ),
            ),
          );
        }
      }
      await vi.advanceTimersByTimeAsync(5_000);
      const outcomes = await Promise.all(all);
      expect(outcomes.filter((o) => o.admission.leased).length).toBeGreaterThan(50);
      expect(firstNonConforming(admittedAt(outcomes, [guard]), policy)).toBeNull();
    },
  );
});

describe("under-admission stays small: a steady client at 80 % of its rate never sees a 429", () => {
  const cases: [RatePolicy, number][] = [
    LIVE,
    { rate: 25, burst: 25 },
    { rate: 10, burst: 1 },
    { rate: 1, burst: 1 },
    { rate: 50, burst: 5 },
    { rate: 400, burst: 40 },
  ].flatMap((policy) => [0, 50, 150].map((rtt) => [policy, rtt] as [RatePolicy, number]));

  it.each(cases)("%j, SubjectGuard %i ms away", { timeout: 30_000 }, async (policy, rtt) => {
    const guard = new SimulatedGuard(policy, rtt);
    const rate = 0.8 * policy.rate;
    // 10 s, or 1,500 requests for the fastest (the fake clock's cost is per timer).
    const outcomes = await requests(
      isolate(guard),
      Math.ceil(Math.min(rate * 10, Math.max(1_500, rate * 4))),
      1000 / rate,
    );
    expect(verdicts(outcomes).filter((v) => v !== "allowed")).toEqual([]);
  });
});
