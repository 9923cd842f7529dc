/**
 * Production accepts only live keys. A test key is refused on its prefix before any storage read,
 * and a record whose mode is not production's is refused too: the mode comes from the record, never
 * from the prefix alone. (The sandbox side: deployment.sandbox.test.ts.)
 *
 * The isolate's short memory of key records (src/worker/auth/key-record-cache.ts): a busy key costs
 * no KV read per request, and remembering a record never lets a revoked key through — once the
 * key's SubjectGuard has revoked it (which returns when no lease can admit it any more), it is
 * refused.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey } from "../../src/common/auth/api-key";
import { keyIndexName, type KeyRecord } from "../../src/worker/auth/key-record";
import { accountWithKey, bearer, call, countedCall, countingEnv } from "./auth-fixtures";
import { expectProblem } from "./support/problems";
import { KEY_RECORD_TTL_MS, recentKeyRecord, rememberKeyRecord } from "../../src/worker/auth/key-record-cache";

describe("production deployment", () => {
  it("accepts a live key", async () => {
    const { secret } = await accountWithKey();
    expect(secret.startsWith("sk_live_")).toBe(true);
    expect((await call("/v2/cheeses", { headers: bearer(secret) })).status).toBe(200);
  });

  it("refuses a test key with 401 wrong_deployment that says to use the sandbox, without a storage read", async () => {
    const { res, calls } = await countedCall("/v2/cheeses", { headers: bearer(generateApiKey("test").secret) });
    const problem = await expectProblem(res, 401, "wrong_deployment");
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

const record = (status: KeyRecord["status"]): KeyRecord => ({
  key_id: "key_live_AAAAAAAAAAAAAAAAAAAA",
  account_id: "acct_AAAAAAAAAAAAAAAAAAAA",
  mode: "live",
  scopes: ["read:catalog"],
  status,
  created_at: "2026-11-20T09:30:00.000Z",
  last4: "abcd",
});

describe("the record memory itself", () => {
  it("keeps an active record for the TTL and not a moment longer", () => {
    const hash = crypto.randomUUID();
    rememberKeyRecord(hash, record("active"), 1_000);
    expect(recentKeyRecord(hash, 1_000 + KEY_RECORD_TTL_MS - 1)).toEqual(record("active"));
    expect(recentKeyRecord(hash, 1_000 + KEY_RECORD_TTL_MS)).toBeUndefined();
    expect(recentKeyRecord(hash, 1_000)).toBeUndefined(); // expired entries are dropped, not revived
  });

  it("never keeps a revoked record, and a revoked read forgets the active one", () => {
    const hash = crypto.randomUUID();
    rememberKeyRecord(hash, record("revoked"), 1_000);
    expect(recentKeyRecord(hash, 1_000)).toBeUndefined();
    rememberKeyRecord(hash, record("active"), 1_000);
    rememberKeyRecord(hash, record("revoked"), 1_001);
    expect(recentKeyRecord(hash, 1_002)).toBeUndefined();
  });
});

describe("through the worker", () => {
  it("reads the key index once: the next request asks only the key's guard", async () => {
    const { secret } = await accountWithKey();
    expect((await call("/v2/cheeses", { headers: bearer(secret) })).status).toBe(200);
    const { env: counted, calls } = countingEnv();
    expect((await call("/v2/cheeses", { headers: bearer(secret) }, counted)).status).toBe(200);
    expect(calls).toEqual(["SUBJECT_GUARDS.getByName"]);
  });

  it("refuses a key revoked by its account at the very next request, although its record is remembered", async () => {
    const { secret, key, accountId } = await accountWithKey();
    expect((await call("/v2/cheeses", { headers: bearer(secret) })).status).toBe(200);
    const revoked = await env.ACCOUNTS.getByName(accountId).revokeKey(key.id);
    expect(revoked).toMatchObject({ ok: true });
    const next = await call("/v2/cheeses", { headers: bearer(secret) });
    expect(next.status).toBe(401);
    expect(await next.json()).toMatchObject({ code: "revoked_api_key", detail: expect.stringContaining(key.id) });
  });
});
