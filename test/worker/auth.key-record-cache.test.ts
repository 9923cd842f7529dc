/**
 * The isolate's short memory of key records (src/worker/auth/key-record-cache.ts): a busy key costs no KV
 * read per request, and remembering a record never lets a revoked key through — once the key's
 * SubjectGuard has revoked it (which returns when no lease can admit it any more), it is refused.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { KEY_RECORD_TTL_MS, recentKeyRecord, rememberKeyRecord } from "../../src/worker/auth/key-record-cache";
import type { KeyRecord } from "../../src/worker/auth/key-record";
import { accountWithKey, bearer, call, countingEnv } from "./auth-fixtures";

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
