/**
 * KV records are read through zod schemas (src/worker/http/stored-json.ts): a corrupt one (not JSON, or
 * not of the record's shape) counts as absent, never as trusted data and never as a 500.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { accountObject } from "../../src/worker/auth/accounts";
import { hashApiKey } from "../../src/common/auth/api-key";
import { keyIndexName } from "../../src/worker/auth/key-record";
import { adminRequestEntryName, approvedTokenScopes } from "../../src/worker/auth/oauth/admin-request-record";
import { adminRequests } from "../../src/worker/auth/oauth/admin-requests";
import { sha256Hex } from "../../src/common/sha256";
import { expectDefined } from "../../src/common/expect";
import { accountWithKey, bearer, call, newAccount, newKey } from "./auth-fixtures";
import { signIn } from "./dashboard-support";

const CORRUPT = ["{not json", JSON.stringify({ unexpected: true }), JSON.stringify({ status: "approved" }), "null"];

beforeEach(() => void vi.spyOn(console, "error").mockImplementation(() => {}));
afterEach(() => vi.restoreAllMocks());

describe("a corrupt record is treated as absent", () => {
  it.each(CORRUPT)("web session %s: the browser is signed out", async (stored) => {
    const client = await signIn(await newAccount());
    expect(await (await client.get("/dashboard/keys")).text()).toContain("Sign out");
    await env.OAUTH_KV.put(
      `web-session:${await sha256Hex(expectDefined(client.cookies.get("__Host-session"), "a session cookie"))}`,
      stored,
    );
    const res = await client.get("/dashboard/keys");
    expect(res.status).toBeLessThan(500);
    expect(await res.text()).not.toContain("Sign out");
  });

  it.each(CORRUPT)("API key index %s: 401 invalid_api_key", async (stored) => {
    const { secret } = await accountWithKey();
    await env.AUTH_KV.put(keyIndexName(await hashApiKey(secret)), stored);
    const res = await call("/v1/keys", { headers: bearer(secret) });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "invalid_api_key" });
  });

  it.each(CORRUPT)("admin request %s: no admin scope, and no pending request listed", async (stored) => {
    const accountId = `acct_corrupt${crypto.randomUUID().slice(0, 8)}`;
    await env.OAUTH_KV.put(adminRequestEntryName(accountId, "client-1"), stored);
    const scopes = await approvedTokenScopes(env.OAUTH_KV, {
      accountId,
      clientId: "client-1",
      scopes: ["read:catalog", "admin"],
    });
    expect(scopes).toEqual(["read:catalog"]);
    expect(await adminRequests(env.OAUTH_KV, { accountId })).toEqual([]);
  });

  it.each(CORRUPT)("account object's JSON columns %s: read as empty lists (no scope, no role)", async (stored) => {
    const { accountId, key } = await accountWithKey();
    const other = await newKey(accountId);
    await runInDurableObject(accountObject(env, accountId), (_, state) => {
      state.storage.sql.exec("UPDATE api_keys SET scopes = ? WHERE id = ?", stored, other.key.id);
      state.storage.sql.exec("UPDATE account SET roles = ?", stored);
    });
    const res = await call("/v1/keys", { headers: bearer((await newKey(accountId)).secret) });
    expect(res.status).toBe(200);
    const listed = (await res.json<{ data: { id: string; scopes: string[] }[] }>()).data;
    expect(listed.find((view) => view.id === other.key.id)?.scopes).toEqual([]);
    expect(listed.find((view) => view.id === key.id)?.scopes).toEqual(key.scopes);
    expect(await accountObject(env, accountId).account()).toMatchObject({ ok: true, value: { roles: [] } });
  });

  it("SubjectGuard values of the wrong type: a policy or owner counts as absent, a revocation mark still revokes", async () => {
    const name = `key_live_corrupt${crypto.randomUUID().slice(0, 8)}`;
    await runInDurableObject(env.SUBJECT_GUARDS.getByName(name), (_, state) => {
      for (const [key, value] of Object.entries({
        owner: 42,
        revoked_at: "yesterday",
        policy: { rate: "fast" },
        strict: "yes",
        last_used: "now",
      })) {
        state.storage.kv.put(key, value);
      }
    });
    await evictDurableObject(env.SUBJECT_GUARDS.getByName(name)); // the next instance reads storage afresh
    expect(await env.SUBJECT_GUARDS.getByName(name).describe()).toEqual({
      owner: null,
      revoked: true,
      revokedAt: new Date(0).toISOString(),
      policyOverride: null,
      strict: false,
      lastUsedAt: null,
    });
  });
});
