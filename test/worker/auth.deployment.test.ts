/**
 * Production accepts only live keys. A test key is refused on its prefix before any storage read,
 * and a record whose mode is not production's is refused too: the mode comes from the record, never
 * from the prefix alone. (The sandbox side: deployment.sandbox.test.ts.)
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey } from "../../src/common/auth/api-key";
import { keyIndexName, type KeyRecord } from "../../src/worker/auth/key-record";
import { accountWithKey, bearer, call, countingEnv, freshIp } from "./auth-fixtures";

describe("production deployment", () => {
  it("accepts a live key", async () => {
    const { secret } = await accountWithKey();
    expect(secret.startsWith("sk_live_")).toBe(true);
    expect((await call("/v2/cheeses", { headers: bearer(secret) })).status).toBe(200);
  });

  it("refuses a test key with 401 wrong_deployment that says to use the sandbox, without a storage read", async () => {
    const { env: counted, calls } = countingEnv();
    const res = await call(
      "/v2/cheeses",
      { headers: { ...bearer(generateApiKey("test").secret), "CF-Connecting-IP": freshIp() } },
      counted,
    );
    expect(res.status).toBe(401);
    const problem = await res.json<{ code: string; detail: string }>();
    expect(problem.code).toBe("wrong_deployment");
    expect(problem.detail).toBe(
      "A test key (sk_test_…) was sent to the production deployment, which accepts only live keys. Send this key to the sandbox deployment, or use a live key here.",
    );
    expect(res.headers.get("www-authenticate")).toMatch(
      /^Bearer realm="readiness-catalog-production", error="invalid_token", error_description="A test key/,
    );
    expect(calls).toEqual([]);
  });

  it("trusts the record, not the prefix: a live-prefixed key whose record says test is refused", async () => {
    const { secret } = generateApiKey("live");
    const record: KeyRecord = {
      key_id: "key_test_AAAAAAAAAAAAAAAAAAAA",
      account_id: "acct_AAAAAAAAAAAAAAAAAAAA",
      mode: "test",
      scopes: ["read:cheeses"],
      status: "active",
      created_at: new Date().toISOString(),
      last4: secret.slice(-4),
    };
    await env.AUTH_KV.put(keyIndexName(await hashApiKey(secret)), JSON.stringify(record));
    const res = await call("/v2/cheeses", { headers: bearer(secret) });
    expect(res.status).toBe(401);
    expect((await res.json<{ code: string }>()).code).toBe("wrong_deployment");
  });

  it("cannot create test keys: the account's object holds production's (live) keys only", async () => {
    const { accountId } = await accountWithKey();
    const outcome = await env.ACCOUNTS.getByName(accountId).createKey({ mode: "test" });
    expect(outcome).toMatchObject({ ok: false, code: "wrong_key_mode" });
  });
});
