/**
 * Admission leases against the real SubjectGuard Durable Object and through the worker, in real time:
 * several isolates (each its own LeaseBook) never over-admit; after `revoke` returns no request is
 * admitted anywhere, and it returns within the lease lifetime; strict keys ask on every request;
 * a steady client below its rate sees no 429.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Admission } from "../../src/worker/limits/admission";
import { LeaseBook, type AdmissionContext } from "../../src/worker/limits/lease-book";
import { LEASE_TTL_MS } from "../../src/worker/limits/lease-protocol";
import { accountWithKey, bearer, call, countingEnv } from "./auth-fixtures";

const guard = (keyId: string) => env.SUBJECT_GUARDS.getByName(keyId);
/** What a timer may run late on a busy machine: revoke's wait for the last lease is one. */
const TIMER_SLACK_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A simulated isolate: its own LeaseBook, talking to the real SubjectGuard of `keyId`. */
function isolate(keyId: string) {
  const book = new LeaseBook();
  const background: Promise<unknown>[] = [];
  const ctx: AdmissionContext = {
    source: () => guard(keyId),
    policy: { rate: 100, burst: 100 },
    waitUntil: (work) => background.push(work),
  };
  return { admit: () => book.admit(keyId, ctx), settled: () => Promise.allSettled(background) };
}

/** `count` requests, one every `intervalMs`, through `send`; resolves with what each got, in order. */
async function paced<T>(
  count: number,
  intervalMs: number,
  send: () => Promise<T>,
): Promise<{ at: number; result: T }[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      await sleep(i * intervalMs);
      const at = Date.now();
      return { at, result: await send() };
    }),
  );
}

describe("never over-admits: several isolates against one SubjectGuard", () => {
  it("4 isolates, waves of concurrent requests: at most the burst of 40 admitted in all", async () => {
    const { key } = await accountWithKey();
    await guard(key.id).setPolicyOverride({ rate: 0.001, burst: 40 });
    const isolates = Array.from({ length: 4 }, () => isolate(key.id));
    const admissions: Admission[] = [];
    for (let wave = 0; wave < 4; wave++) {
      admissions.push(
        ...(await Promise.all(isolates.flatMap((i) => Array.from({ length: 8 + wave * 4 }, () => i.admit())))),
      );
    }
    await Promise.all(isolates.map((i) => i.settled()));
    const allowed = admissions.filter((a) => a.verdict === "allowed");
    expect(allowed.length).toBeLessThanOrEqual(40);
    expect(allowed.filter((a) => a.leased).length).toBeGreaterThan(0);
    expect(admissions.filter((a) => a.verdict === "limited").length).toBe(admissions.length - allowed.length);
  });
});

describe(`revocation is final everywhere when revoke returns, within the lease lifetime (${LEASE_TTL_MS} ms)`, () => {
  it("3 isolates holding leases: revoke returns within the bound, and no isolate admits anything after it", async () => {
    const { key } = await accountWithKey();
    await guard(key.id).setPolicyOverride({ rate: 1_000_000, burst: 1_000_000 });
    const first = isolate(key.id);
    const isolates = [first, isolate(key.id), isolate(key.id)];
    for (let round = 0; round < 20; round++)
      await Promise.all(isolates.map((i) => Promise.all([i.admit(), i.admit(), i.admit()])));
    await Promise.all(isolates.map((i) => i.settled())); // renewals in flight have landed
    const leased = await Promise.all(isolates.map((i) => i.admit()));
    expect(leased.every((a) => a.verdict === "allowed" && a.leased)).toBe(true);

    const asked = Date.now();
    const revoked = guard(key.id).revoke();
    // Meanwhile the isolates may still admit from their leases...
    const during = await paced(20, 10, () => first.admit());
    await revoked;
    const returned = Date.now();
    expect(returned - asked).toBeLessThanOrEqual(LEASE_TTL_MS + TIMER_SLACK_MS);
    expect(during.some(({ result }) => result.verdict === "allowed")).toBe(true);
    // ...but from the moment revoke returned, nothing anywhere.
    const after = await Promise.all(isolates.flatMap((i) => Array.from({ length: 5 }, () => i.admit())));
    expect(after.map((a) => a.verdict)).toEqual(Array(15).fill("revoked"));
  });

  it("through the worker: a key busy from this isolate is refused from the response to its DELETE on", async () => {
    const { secret, key } = await accountWithKey();
    await guard(key.id).setPolicyOverride({ rate: 1_000_000, burst: 1_000_000 });
    for (let i = 0; i < 20; i++) await call("/v2/cheeses", { headers: bearer(secret) });
    const { env: counted, calls } = countingEnv();
    expect((await call("/v2/cheeses", { headers: bearer(secret) }, counted)).status).toBe(200);
    expect(calls).toEqual([]); // admitted from the lease: no SubjectGuard call

    const asked = Date.now();
    expect((await call(`/v1/keys/${key.id}`, { method: "DELETE", headers: bearer(secret) })).status).toBe(200);
    expect(Date.now() - asked).toBeLessThanOrEqual(LEASE_TTL_MS + 2 * TIMER_SLACK_MS); // the account's and the SubjectGuard's work too
    const next = await call("/v2/cheeses", { headers: bearer(secret) });
    expect(next.status).toBe(401);
    expect(await next.json()).toMatchObject({ code: "revoked_api_key" });
  });
});

describe("strict keys: every request asks the SubjectGuard", () => {
  it("asks on every request, and a revocation returns at once and holds from the very next request", async () => {
    const { secret, key } = await accountWithKey();
    await guard(key.id).setPolicyOverride({ rate: 1_000_000, burst: 1_000_000 });
    for (let i = 0; i < 10; i++) await call("/v2/cheeses", { headers: bearer(secret) });
    expect(await guard(key.id).setStrict(true)).toMatchObject({ strict: true });
    await call("/v2/cheeses", { headers: bearer(secret) }); // the isolate learns it
    for (let i = 0; i < 5; i++) {
      const { env: counted, calls } = countingEnv();
      const res = await call("/v2/cheeses", { headers: bearer(secret) }, counted);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit")).toMatch(/^"default";r=99999\d;t=1$/); // exact: the SubjectGuard's own figure
      expect(calls).toEqual(["SUBJECT_GUARDS.getByName"]);
    }
    const asked = Date.now();
    await guard(key.id).revoke();
    expect(Date.now() - asked).toBeLessThan(LEASE_TTL_MS / 2);
    expect((await call("/v2/cheeses", { headers: bearer(secret) })).status).toBe(401);
  });

  it("setting strict returns once the leases granted before it have ended", async () => {
    const { key } = await accountWithKey();
    const one = isolate(key.id);
    for (let i = 0; i < 10; i++) await Promise.all([one.admit(), one.admit(), one.admit()]);
    expect((await one.admit()).leased).toBe(true);
    await guard(key.id).setStrict(true);
    const next = await one.admit();
    expect(next).toMatchObject({ verdict: "allowed", leased: false });
  });
});

describe("under-admission stays small: a steady client at 80 % of its rate sees no 429", () => {
  it.each([
    [{ rate: 100, burst: 100 }, 1_500],
    // A burst of 10: a busy machine's timers may fire a few paced requests at once.
    [{ rate: 20, burst: 10 }, 2_000],
  ])("%j, for %i ms, through the worker", async (policy, duration) => {
    const { secret, key } = await accountWithKey();
    await guard(key.id).setPolicyOverride(policy);
    const rate = 0.8 * policy.rate;
    const outcomes = await paced(Math.floor((rate * duration) / 1000), 1000 / rate, () =>
      call("/v2/cheeses", { headers: bearer(secret) }),
    );
    expect(outcomes.map(({ result }) => result.status).filter((status) => status !== 200)).toEqual([]);
  });
});
