/**
 * The sandbox deployment ([env.sandbox]: its own KV, R2 and Durable Objects) accepts only test
 * keys, with the test-mode rate limit (25 req/s).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateApiKey } from "../../src/common/auth/api-key";
import { accountWithKey, bearer, call, countingEnv, freshIp } from "./auth-fixtures";

describe("sandbox deployment", () => {
  it("runs with the sandbox's vars", () => {
    expect([env.DEPLOYMENT, env.KEY_MODE]).toEqual(["sandbox", "test"]);
  });

  it("accepts a test key, under the test-mode policy of 25 requests per second", async () => {
    const { secret } = await accountWithKey();
    expect(secret.startsWith("sk_test_")).toBe(true);
    const res = await call("/v2/cheeses", { headers: bearer(secret) });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toBe('"default";q=25;w=1');
    expect(res.headers.get("ratelimit")).toBe('"default";r=24;t=1');
  });

  it("refuses a live key with 401 wrong_deployment that says to use production, without a storage read", async () => {
    const { env: counted, calls } = countingEnv();
    const res = await call(
      "/v2/cheeses",
      { headers: { ...bearer(generateApiKey("live").secret), "CF-Connecting-IP": freshIp() } },
      counted,
    );
    expect(res.status).toBe(401);
    const problem = await res.json<{ code: string; detail: string }>();
    expect(problem.code).toBe("wrong_deployment");
    expect(problem.detail).toMatch(
      /live key .* sandbox deployment, which accepts only test keys\. Send this key to the production deployment/,
    );
    expect(res.headers.get("www-authenticate")).toMatch(
      /^Bearer realm="readiness-catalog-sandbox", error="invalid_token"/,
    );
    expect(calls).toEqual([]);
  });

  it("admits exactly the test burst of 25 out of 60 concurrent requests (configured policy, nothing refills)", async () => {
    const { secret } = await accountWithKey();
    const bindings = {
      ...env,
      RATE_LIMITS: { live: { rate: 0.001, burst: 100 }, test: { rate: 0.001, burst: 25 } },
    } as unknown as Env;
    const results = await Promise.all(
      Array.from({ length: 60 }, () => call("/v2/cheeses", { headers: bearer(secret) }, bindings)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(25);
  });

  it("lets a test key create test keys only (a test key can never mint a live key)", async () => {
    const { secret } = await accountWithKey();
    const test = await call("/v1/keys", { method: "POST", headers: bearer(secret) });
    expect(test.status).toBe(201);
    expect((await test.json<{ secret: string }>()).secret).toMatch(/^sk_test_/);
    const live = await call("/v1/keys", {
      method: "POST",
      headers: { ...bearer(secret), "Content-Type": "application/json" },
      body: '{"mode":"live"}',
    });
    expect(live.status).toBe(400);
    expect((await live.json<{ code: string; detail: string }>()).detail).toMatch(
      /create live keys on the production deployment/,
    );
  });
});
