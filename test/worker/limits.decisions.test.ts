/**
 * gcraDecide and the header values, driven with explicit clocks (no waiting, no wall clock).
 *
 * The SubjectGuard's ledger (src/worker/limits/lease-ledger.ts), driven with explicit clocks:
 * leases cost what direct admissions cost, held admissions keep the bucket from refilling past what
 * is safe, and the admissions actually made by several holders never exceed the policy, whatever
 * they do.
 */
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { gcraDecide, type RatePolicy } from "../../src/worker/limits/gcra";
import { rateLimitPolicyValue, rateLimitValue, retryAfterSeconds } from "../../src/worker/limits/headers";
import { DEFAULT_RATE_LIMITS, policyForMode } from "../../src/worker/limits/policy";
import { LeaseLedger, type LedgerDecision } from "../../src/worker/limits/lease-ledger";
import { LEASE_MARGIN_MS, LEASE_TTL_MS, type LeaseReturn } from "../../src/worker/limits/lease-protocol";
import { firstNonConforming, seeded } from "./support/lease-simulation";

/** Runs requests at the given instants (ms), returning each decision and the final TAT. */
function run(policy: RatePolicy, instants: number[]) {
  let tat: number | undefined;
  return instants.map((now) => {
    const decision = gcraDecide(tat, now, policy);
    tat = decision.tat;
    return decision;
  });
}

describe("gcraDecide", () => {
  it("admits exactly `burst` requests at once from idle, counting `remaining` down to 0", () => {
    const decisions = run({ rate: 100, burst: 100 }, Array(150).fill(0));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
    expect(decisions.slice(0, 100).map((d) => d.remaining)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
    expect(decisions.slice(100).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
  });

  it("then admits at the sustained rate: one request per emission interval", () => {
    const policy = { rate: 25, burst: 25 };
    const burst = run(policy, Array(25).fill(0));
    let tat = expectDefined(burst.at(-1), "the burst's last decision").tat;
    const admittedPerSecond: number[] = [];
    for (let second = 0; second < 3; second++) {
      let admitted = 0;
      for (let ms = second * 1000 + 1; ms <= (second + 1) * 1000; ms++) {
        const d = gcraDecide(tat, ms, policy);
        tat = d.tat;
        if (d.allowed) admitted++;
      }
      admittedPerSecond.push(admitted);
    }
    expect(admittedPerSecond).toEqual([25, 25, 25]);
  });

  it("says when a retry succeeds: refused 1 ms before retryAfterMs, admitted exactly at it", () => {
    for (const policy of [
      { rate: 100, burst: 100 },
      { rate: 3, burst: 2 },
      { rate: 0.5, burst: 1 },
    ]) {
      const decisions = run(policy, Array(policy.burst + 1).fill(1000));
      const refused = expectDefined(decisions.at(-1), "the decision past the burst");
      expect(refused.allowed).toBe(false);
      const { tat } = expectDefined(decisions.at(-2), "the burst's last decision");
      expect(gcraDecide(tat, 1000 + refused.retryAfterMs - 1, policy).allowed).toBe(false);
      expect(gcraDecide(tat, 1000 + refused.retryAfterMs, policy).allowed).toBe(true);
    }
  });

  it("leaves the TAT unchanged when it refuses, so refused requests cost no budget", () => {
    const policy = { rate: 1, burst: 1 };
    const decisions = run(policy, [0, 10, 20]);
    const decisionAt = (i: number) => expectDefined(decisions[i], `decision ${i} of 3`);
    const [first, third] = [decisionAt(0), decisionAt(2)];
    expect(first.allowed).toBe(true);
    expect(decisionAt(1).allowed).toBe(false);
    expect(third.tat).toBe(first.tat);
    expect(gcraDecide(third.tat, 1000, policy).allowed).toBe(true);
  });

  it("reports how long until the whole burst is back (resetMs)", () => {
    const decisions = run({ rate: 10, burst: 5 }, [0, 0, 0]);
    expect(decisions.map((d) => d.resetMs)).toEqual([100, 200, 300]);
  });

  it("forgets nothing it needs: a TAT in the past is a full bucket", () => {
    expect(gcraDecide(5_000, 60_000, { rate: 10, burst: 5 })).toMatchObject({ allowed: true, remaining: 4 });
    expect(gcraDecide(undefined, 60_000, { rate: 10, burst: 5 })).toMatchObject({ allowed: true, remaining: 4 });
  });
});

describe("header values", () => {
  it("writes RateLimit-Policy as the draft's quota policy: q requests per w seconds", () => {
    expect(rateLimitPolicyValue({ rate: 100, burst: 100 })).toBe('"default";q=100;w=1');
    expect(rateLimitPolicyValue({ rate: 25, burst: 25 })).toBe('"default";q=25;w=1');
    expect(rateLimitPolicyValue({ rate: 10, burst: 50 })).toBe('"default";q=50;w=5');
  });

  it("writes RateLimit with r remaining and t rounded up", () => {
    expect(rateLimitValue(42, 0)).toBe('"default";r=42;t=0');
    expect(rateLimitValue(42, 580)).toBe('"default";r=42;t=1');
    expect(rateLimitValue(0, 2000)).toBe('"default";r=0;t=2');
  });

  it("rounds Retry-After up to whole seconds, at least 1: never earlier than a retry can succeed", () => {
    expect([0.001, 10, 999, 1000, 1001, 9_999].map(retryAfterSeconds)).toEqual([1, 1, 1, 1, 2, 10]);
  });
});

describe("policies per mode", () => {
  it("default to live 100 req/s and test 25 req/s, each with a one-second burst", () => {
    expect(policyForMode(undefined, "live")).toEqual({ rate: 100, burst: 100 });
    expect(policyForMode(undefined, "test")).toEqual({ rate: 25, burst: 25 });
    expect(DEFAULT_RATE_LIMITS.live.rate / DEFAULT_RATE_LIMITS.test.rate).toBe(4);
  });

  it("takes each mode's policy from the checked var (a malformed var: worker-env.test.ts)", () => {
    const slow = { live: { rate: 10, burst: 5 }, test: { rate: 2, burst: 1 } };
    expect(policyForMode(slow, "live")).toEqual({ rate: 10, burst: 5 });
    expect(policyForMode(slow, "test")).toEqual({ rate: 2, burst: 1 });
  });
});

const LIVE = { rate: 100, burst: 100 };
const granted = (decision: LedgerDecision) => (decision.allowed ? (decision.lease?.count ?? 1) : 0);
/** The id of the lease a grant gave, which the test expects it to have given. */
const leaseIdOf = (decision: LedgerDecision | undefined) =>
  expectDefined(decision?.allowed ? decision.lease : undefined, "a lease granted").id;

describe("a lease costs what the same direct admissions cost", () => {
  it("grants at most a quarter of the burst, and only what the bucket has", () => {
    const ledger = new LeaseLedger();
    expect([0, 0, 0, 0, 0].map(() => granted(ledger.grant(0, LIVE, 40, [])))).toEqual([25, 25, 25, 25, 0]);
  });

  it("advances the TAT by n·T: a lease of 25 then 75 direct admissions empty the burst of 100", () => {
    const ledger = new LeaseLedger();
    const lease = ledger.grant(0, LIVE, 25, []);
    expect(lease).toMatchObject({ allowed: true, remaining: 75, resetMs: 250 });
    expect(ledger.tat).toBe(250);
    const direct = Array.from({ length: 76 }, () => ledger.admitOne(0, LIVE).allowed);
    expect(direct.filter(Boolean)).toHaveLength(75);
  });

  it("a spent lease handed back frees what it held; unused admissions come back too", () => {
    const ledger = new LeaseLedger();
    const all = [0, 0, 0, 0].map(() => ledger.grant(0, LIVE, 25, []));
    expect(granted(ledger.grant(10, LIVE, 25, []))).toBe(0);
    // 10 ms later: the first lease is spent, the second gives back 20 unused. The 10 ms of refill
    // is not there: while all 100 were held, any of them could still be spent (the cap).
    const back: LeaseReturn[] = [
      { id: leaseIdOf(all[0]), unused: 0 },
      { id: leaseIdOf(all[1]), unused: 20 },
    ];
    expect(granted(ledger.grant(10, LIVE, 25, back))).toBe(20);
  });

  it("an unknown, repeated or expired lease gives nothing back, and unused is bounded by the lease", () => {
    const ledger = new LeaseLedger();
    const id = leaseIdOf(ledger.grant(0, LIVE, 25, []));
    ledger.grant(0, LIVE, 25, []);
    ledger.grant(0, LIVE, 25, []);
    ledger.grant(0, LIVE, 25, []);
    const tat = expectDefined(ledger.tat, "the ledger's TAT after four grants");
    ledger.grant(0, LIVE, 25, [
      { id: "elsewhere-1", unused: 25 },
      { id, unused: 1000 },
      { id, unused: 25 },
    ]);
    // Only the first return of `id` counts, for its 25 at most: exactly the 25 then granted again.
    expect(ledger.tat).toBe(tat);
  });
});

describe("held admissions keep the bucket from refilling past what is safe", () => {
  it("a lease spent late cannot add to a refilled bucket: 4 leases of 25 at 0 ms, nothing more until they end", () => {
    const ledger = new LeaseLedger();
    for (let i = 0; i < 4; i++) ledger.grant(0, LIVE, 25, []);
    // Plain GCRA would have 90 admissions again at 900 ms; the holders may still spend their 100 then.
    const refused = ledger.grant(900, LIVE, 25, []);
    expect(refused).toMatchObject({ allowed: false });
    // Retry-After: once the leases end (1 s), one interval later.
    expect(refused.allowed ? 0 : refused.retryAfterMs).toBe(LEASE_TTL_MS + 10 - 900);
    expect(granted(ledger.grant(LEASE_TTL_MS + 10, LIVE, 25, []))).toBe(1);
  });

  it("says when the allowance is whole at the latest, counting what other holders may still spend", () => {
    const ledger = new LeaseLedger();
    ledger.grant(0, LIVE, 25, []);
    const second = ledger.grant(0, LIVE, 25, []);
    // As if all 50 were used now: 500 ms. The first lease may spend its 25 until 1000 ms: + 250 ms.
    expect(second).toMatchObject({ resetMs: 500, othersResetMs: LEASE_TTL_MS + 250 });
  });
});

describe("never over-admits: the admissions actually made conform to the policy", () => {
  const policies: RatePolicy[] = [
    LIVE,
    { rate: 25, burst: 25 },
    { rate: 10, burst: 8 },
    { rate: 50, burst: 4 },
    { rate: 1, burst: 12 },
  ];
  type Holder = { leases: { id: string; left: number; until: number }[]; back: LeaseReturn[] };

  /** Spends one admission from the holder's leases, if it has one. */
  function spendOne(holder: Holder): boolean {
    const lease = holder.leases.find((held) => held.left > 0);
    if (!lease) return false;
    if (--lease.left === 0) holder.back.push({ id: lease.id, unused: 0 });
    holder.leases = holder.leases.filter((held) => held.left > 0);
    return true;
  }

  it.each(policies.flatMap((policy) => [1, 2, 3].map((seed) => [policy, seed] as const)))(
    "%j, seed %i: 4 holders that hoard, spend late in bursts, give up early, and direct admissions",
    (policy, seed) => {
      const random = seeded(seed * 7919 + policy.burst);
      const ledger = new LeaseLedger();
      const spent: number[] = [];
      const holders: Holder[] = Array.from({ length: 4 }, () => ({ leases: [], back: [] }));
      const horizon = (30 * 1000 * 10) / Math.max(policy.rate, 10);
      for (let now = 0; now < horizon; now += Math.floor(random() * 15)) {
        for (const holder of holders) {
          holder.leases = holder.leases.filter((lease) => lease.until > now);
          const roll = random();
          if (roll < 0.3) {
            // Asks for more, held or not; sent up to 40 ms ago, so the holder counts the lease's time from then.
            const sentAt = now - Math.floor(random() * 40);
            const decision = ledger.grant(now, policy, 1 + Math.floor(random() * 30), holder.back.splice(0));
            if (decision.allowed && decision.lease)
              holder.leases.push({
                id: decision.lease.id,
                left: decision.lease.count,
                until: sentAt + decision.lease.ttlMs - LEASE_MARGIN_MS,
              });
          } else if (roll < 0.4) {
            while (spendOne(holder)) spent.push(now); // everything it holds, at once
          } else if (roll < 0.45 && holder.leases.length > 0) {
            const dropped = expectDefined(holder.leases.shift(), "a held lease"); // given up early: never used again
            holder.back.push({ id: dropped.id, unused: dropped.left });
          } else if (roll < 0.55) {
            if (ledger.admitOne(now, policy, holder.back.splice(0)).allowed) spent.push(now);
          } else {
            for (let n = Math.floor(random() * 3); n > 0 && spendOne(holder); n--) spent.push(now);
          }
        }
      }
      expect(spent.length).toBeGreaterThan(policy.burst);
      expect(firstNonConforming(spent, policy)).toBeNull();
    },
  );
});
