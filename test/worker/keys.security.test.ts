/**
 * Key security: the 3-key limit under concurrency, revocation that beats KV, authority between
 * keys and accounts, and secrets that appear nowhere (KV, Durable Object storage, logs, responses)
 * except the one creation response.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accountObject } from "../../src/worker/auth/accounts";
import { hashApiKey } from "../../src/common/auth/api-key";
import { keyIndexName } from "../../src/worker/auth/key-record";
import { accountWithKey, bearer, call, newAccount, newKey } from "./auth-fixtures";
import { consentedTokens, createCustomer } from "./oauth-support";
import { expectProblem } from "./support/problems";

const post = (secret: string, body: unknown = {}) => ({
  method: "POST",
  headers: { ...bearer(secret), "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

afterEach(() => vi.restoreAllMocks());

describe("at most 3 active keys, race-free", () => {
  it("10 concurrent POST /v1/keys on an account with 2 active keys create exactly 1 key", async () => {
    const first = await accountWithKey();
    await newKey(first.accountId);
    const responses = await Promise.all(Array.from({ length: 10 }, () => call("/v1/keys", post(first.secret))));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const { data } = await (await call("/v1/keys", { headers: bearer(first.secret) })).json<{
      data: { status: string }[];
    }>();
    expect(data.filter((k) => k.status === "active")).toHaveLength(3);
  });

  it("holds for 10 concurrent creates straight on the account's Durable Object too", async () => {
    const { accountId } = await newAccount();
    await newKey(accountId);
    await newKey(accountId);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => accountObject(env, accountId).createKey({ mode: "live" })),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok && o.code === "key_limit_reached")).toHaveLength(9);
  });
});

describe("revocation is decided by the key's Durable Object, not by KV", () => {
  it("refuses the next request after a revocation in the SubjectGuard while KV still says active", async () => {
    const { secret, key } = await accountWithKey();
    expect((await call("/v2/cheeses", { headers: bearer(secret) })).status).toBe(200);

    await env.SUBJECT_GUARDS.getByName(key.id).revoke(); // only the guard; the KV index is left stale
    const stale = await env.AUTH_KV.get<{ status: string }>(keyIndexName(await hashApiKey(secret)), "json");
    expect(stale?.status).toBe("active");

    const res = await call("/v2/cheeses", { headers: bearer(secret) });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "revoked_api_key", detail: expect.stringContaining(key.id) });
  });
});

describe("authority between keys and accounts", () => {
  it("a restricted key cannot revoke a broader key (403 key_not_manageable), only itself or narrower keys", async () => {
    const full = await accountWithKey();
    const narrow = await newKey(full.accountId, { scopes: ["read:catalog"] });
    const res = await call(`/v1/keys/${full.key.id}`, { method: "DELETE", headers: bearer(narrow.secret) });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: "key_not_manageable",
      detail: expect.stringMatching(/read:cheeses/),
    });
    expect((await call("/v2/cheeses", { headers: bearer(full.secret) })).status).toBe(200);
    expect((await call(`/v1/keys/${narrow.key.id}`, { method: "DELETE", headers: bearer(full.secret) })).status).toBe(
      200,
    );
  });

  it("one account's key neither sees nor revokes another account's keys", async () => {
    const mine = await accountWithKey();
    const theirs = await accountWithKey();
    const list = await (await call("/v1/keys", { headers: bearer(mine.secret) })).json<{ data: { id: string }[] }>();
    expect(list.data.map((k) => k.id)).toEqual([mine.key.id]);
    const res = await call(`/v1/keys/${theirs.key.id}`, { method: "DELETE", headers: bearer(mine.secret) });
    expect(res.status).toBe(404);
    expect((await call("/v2/cheeses", { headers: bearer(theirs.secret) })).status).toBe(200);
  });
});

describe("secrets are shown once and stored nowhere", () => {
  it("no secret in KV, Durable Object storage, logs, or any response but its creation", async () => {
    const logged: string[] = [];
    for (const level of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    }
    const first = await accountWithKey();
    const creation = await call("/v1/keys", post(first.secret, { name: "second" }));
    const second = await creation.json<{ id: string; secret: string }>();
    const secrets = [first.secret, second.secret];
    const responses: string[] = [];
    const record = async (res: Response) => responses.push(JSON.stringify([...res.headers]) + (await res.text()));

    await record(await call("/v1/keys", { headers: bearer(second.secret) }));
    await record(await call("/v2/cheeses", { headers: bearer(first.secret) }));
    await record(await call("/v1/keys", post(first.secret, { scopes: ["admin"] })));
    await record(await call(`/v1/keys/${first.secret}`, { method: "DELETE", headers: bearer(first.secret) }));
    await record(await call(`/v1/keys/${second.id}`, { method: "DELETE", headers: bearer(first.secret) }));
    await record(await call("/v2/cheeses", { headers: bearer(second.secret) }));
    await record(await call("/v2/cheeses", { headers: bearer(`${first.secret.slice(0, -1)}x`) }));

    const kvText: string[] = [];
    for (const kv of [env.AUTH_KV, env.CATALOG_KV, env.OAUTH_KV]) {
      for (const { name } of (await kv.list()).keys) kvText.push(name, (await kv.get(name)) ?? "");
    }
    const sqlText = await runInDurableObject(accountObject(env, first.accountId), (_instance, state) =>
      JSON.stringify([
        ...state.storage.sql.exec("SELECT * FROM account").toArray(),
        ...state.storage.sql.exec("SELECT * FROM api_keys").toArray(),
      ]),
    );

    for (const secret of secrets) {
      const randomPart = secret.slice(8, 38);
      for (const [where, text] of [
        ["KV", kvText.join("\n")],
        ["account storage", sqlText],
        ["logs", logged.join("\n")],
        ["responses", responses.join("\n")],
      ] as const) {
        expect(text, where).not.toContain(randomPart);
      }
    }
    const secondHash = await hashApiKey(second.secret);
    expect(kvText.some((text) => text.includes(secondHash))).toBe(true);
    expect(sqlText).toContain(second.id);
  });
});

describe("keys are managed with keys, never with an OAuth access token", () => {
  it("403 forbidden on list, create and revoke, whatever its scopes; the account's keys are unchanged", async () => {
    const account = await createCustomer();
    const { tokens } = await consentedTokens({ account, scope: "read:catalog read:cheeses manage:webhooks" });
    const existing = await newKey(account.id);
    const token = bearer(tokens.access_token);
    const attempts = [
      call("/v1/keys", { headers: token }),
      call("/v1/keys", { method: "POST", headers: { ...token, "Content-Type": "application/json" }, body: "{}" }),
      call(`/v1/keys/${existing.key.id}`, { method: "DELETE", headers: token }),
    ];
    for (const res of await Promise.all(attempts)) {
      const { detail } = await expectProblem(res, 403, "forbidden");
      expect(detail).toContain("OAuth access tokens cannot manage keys");
    }
    const keys = await accountObject(env, account.id).listKeys();
    expect(keys.ok && keys.value.map((key) => [key.id, key.status])).toEqual([[existing.key.id, "active"]]);
  });
});
