/**
 * Per-key rate limits through the worker and the real SubjectGuard Durable Objects: exact admission
 * under concurrency, the headers, per-mode policies, separate budgets, rejected requests that do no
 * other work, and limiter state that does not outlive its use. Policies with tiny rates make the
 * counts independent of how long the test takes, as long as no lease expires with admissions left.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accountWithKey, bearer, call, countingEnv, newKey } from "./auth-fixtures";

/** One request per 1000 s after the burst: nothing refills while a test runs. */
const frozen = (burst: number) => ({ rate: 0.001, burst });
const guard = (keyId: string) => env.SUBJECT_GUARDS.getByName(keyId);

/** `n` concurrent requests with the key's secret. */
const concurrently = (secret: string, n: number, bindings: Env = env): Promise<Response[]> =>
  Promise.all(Array.from({ length: n }, () => call("/v2/cheeses", { headers: bearer(secret) }, bindings)));
const statuses = async (secret: string, n: number) => (await concurrently(secret, n)).map((r) => r.status);
const count = (list: number[], status: number) => list.filter((s) => s === status).length;

describe("exact admission under concurrency", () => {
  it("lets exactly L of 150 concurrent requests through with a limit of L = 10", async () => {
    const { secret, key } = await accountWithKey();
    await guard(key.id).setPolicyOverride(frozen(10));
    const result = await statuses(secret, 150);
    expect(count(result, 200)).toBe(10);
    expect(count(result, 429)).toBe(140);
  });

  // Bursts under 8 get no leases (docs/rate-limits.md): every request is decided by the SubjectGuard,
  // so the count is exact however slowly the requests run. With leases, admissions a lease still
  // held when it expired would be lost (under-admission by design), as on a loaded machine.
  it("uses the mode's policy from configuration: exactly the live burst of 7 out of 40", async () => {
    const { secret } = await accountWithKey();
    const bindings = { ...env, RATE_LIMITS: { live: frozen(7), test: frozen(5) } } as unknown as Env;
    const responses = await concurrently(secret, 40, bindings);
    const result = responses.map((r) => r.status);
    expect(count(result, 200)).toBe(7);
    expect(count(result, 429)).toBe(33);
    expect(new Set(responses.map((r) => r.headers.get("ratelimit-policy")))).toEqual(new Set(['"default";q=7;w=7000']));
  });

  it("never lets separate keys share a budget, even on one account", async () => {
    const first = await accountWithKey();
    const second = await newKey(first.accountId);
    await guard(first.key.id).setPolicyOverride(frozen(3));
    await guard(second.key.id).setPolicyOverride(frozen(3));
    const [a, b] = await Promise.all([statuses(first.secret, 20), statuses(second.secret, 20)]);
    expect([count(a, 200), count(b, 200)]).toEqual([3, 3]);
  });
});

describe("headers", () => {
  it("carries RateLimit-Policy and RateLimit on every authenticated response, counting down", async () => {
    const { secret, key } = await accountWithKey();
    await guard(key.id).setPolicyOverride(frozen(3));
    const seen: [number, string | null, string | null][] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call("/v1/keys", { headers: bearer(secret) });
      seen.push([res.status, res.headers.get("ratelimit-policy"), res.headers.get("ratelimit")]);
    }
    expect(seen).toEqual([
      [200, '"default";q=3;w=3000', '"default";r=2;t=1000'],
      [200, '"default";q=3;w=3000', '"default";r=1;t=2000'],
      [200, '"default";q=3;w=3000', '"default";r=0;t=3000'],
    ]);
  });

  it("shows the live default policy on production, also on errors past authentication", async () => {
    const { secret } = await accountWithKey();
    const ok = await call("/v2/cheeses", { headers: bearer(secret) });
    expect(ok.headers.get("ratelimit-policy")).toBe('"default";q=100;w=1');
    expect(ok.headers.get("ratelimit")).toBe('"default";r=99;t=1');
    const notFound = await call("/v1/keys/key_live_AAAAAAAAAAAAAAAAAAAA", {
      method: "DELETE",
      headers: bearer(secret),
    });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("ratelimit-policy")).toBe('"default";q=100;w=1');
    expect(notFound.headers.get("ratelimit")).toMatch(/^"default";r=9[89];t=1$/); // r=99 if a token refilled meanwhile
  });

  it("answers 429 rate_limited with Retry-After in whole seconds: the time until a retry can succeed", async () => {
    const { secret, key } = await accountWithKey();
    await guard(key.id).setPolicyOverride({ rate: 0.1, burst: 1 });
    expect((await call("/v2/cheeses", { headers: bearer(secret) })).status).toBe(200);
    const res = await call("/v2/cheeses", { headers: bearer(secret) });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("10");
    expect(res.headers.get("ratelimit")).toMatch(/^"default";r=0;t=10$/);
    expect(res.headers.get("request-id")).toMatch(/^req_/);
    expect(await res.json()).toMatchObject({
      code: "rate_limited",
      status: 429,
      detail: expect.stringMatching(/ending in .{4}.*Retry after 10 s/),
    });
  });
});

describe("rejected requests do no other work", () => {
  // The first request read the key's record; the isolate remembers it (src/worker/auth/key-record-cache.ts).
  it("a 429 touches only the key's guard", async () => {
    const { secret, key } = await accountWithKey();
    await guard(key.id).setPolicyOverride(frozen(1));
    await call("/v1/keys", { headers: bearer(secret) });
    const { env: counted, calls } = countingEnv();
    const res = await call("/v1/keys", { headers: bearer(secret) }, counted);
    expect(res.status).toBe(429);
    expect(calls).toEqual(["SUBJECT_GUARDS.getByName"]);
  });

  it("a 429 on a catalog route reads no catalog KV and no R2; once refused, the isolate refuses without asking", async () => {
    const { secret, key } = await accountWithKey();
    await guard(key.id).setPolicyOverride(frozen(1));
    await call("/v1/releases/current", { headers: bearer(secret) });
    const seen: string[][] = [];
    for (const path of ["/v1/catalog", "/v1/catalog/parts/0", "/v1/releases/current"]) {
      const { env: counted, calls } = countingEnv();
      expect((await call(path, { headers: bearer(secret) }, counted)).status).toBe(429);
      seen.push(calls);
    }
    expect(seen).toEqual([["SUBJECT_GUARDS.getByName"], [], []]);
  });

  it("a revoked key's request touches only the key index and the key's guard", async () => {
    const { secret, key } = await accountWithKey();
    await guard(key.id).revoke();
    const { env: counted, calls } = countingEnv();
    expect((await call("/v1/keys", { headers: bearer(secret) }, counted)).status).toBe(401);
    expect(calls).toEqual(["AUTH_KV.get", "SUBJECT_GUARDS.getByName"]);
  });
});

describe("limiter state does not outlive its use", () => {
  it("keeps the default policy's state in memory only", async () => {
    const { secret, key } = await accountWithKey();
    await statuses(secret, 50);
    const stored = await runInDurableObject(guard(key.id), (_i, state) =>
      [...state.storage.kv.list()].map(([name]) => name),
    );
    expect(stored.sort()).toEqual(["last_used", "owner"]);
  });

  it("persists a TAT far ahead (survives eviction) and its alarm deletes it once passed", async () => {
    const { secret, key } = await accountWithKey();
    await guard(key.id).setPolicyOverride({ rate: 0.1, burst: 2 });
    await statuses(secret, 2);
    const tat = await runInDurableObject(guard(key.id), (_i, state) => state.storage.kv.get<number>("tat"));
    expect(tat).toBeGreaterThan(Date.now());
    expect(await runInDurableObject(guard(key.id), (_i, state) => state.storage.getAlarm())).toBe(tat);
    await evictDurableObject(guard(key.id));
    expect((await call("/v2/cheeses", { headers: bearer(secret) })).status).toBe(429);

    // Time passes: the stored TAT is now in the past, and the alarm fires.
    await runInDurableObject(guard(key.id), (_i, state) => state.storage.kv.put("tat", Date.now() - 1));
    expect(await runDurableObjectAlarm(guard(key.id))).toBe(true);
    expect(await runInDurableObject(guard(key.id), (_i, state) => state.storage.kv.get("tat"))).toBeUndefined();
  });
});
