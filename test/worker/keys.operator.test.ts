/**
 * The operator API behind `npm run operator` (/operator/v1/*): closed unless OPERATOR_SECRET is set,
 * then only for that secret; accounts, keys of any account, admin clearance and requests, per-key limits and
 * strict admission.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { bearer, call, countingEnv, freshIp } from "./auth-fixtures";

const SECRET = "operator-secret-for-tests-0123456789abcdef";
const withSecret = { ...env, OPERATOR_SECRET: SECRET } as unknown as Env;
const op = (path: string, init: { method?: string; body?: unknown } = {}, secret = SECRET) =>
  call(
    `/operator/v1${path}`,
    {
      method: init.method ?? "GET",
      headers: { ...bearer(secret), ...(init.body ? { "Content-Type": "application/json" } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    },
    withSecret,
  );
const email = () => `op-${crypto.randomUUID().slice(0, 8)}@example.test`;
/** A new account, and a key of it with the default scopes, made through the operator API. */
const newAccount = async () =>
  (await op("/accounts", { method: "POST", body: { email: email(), password: "long enough password" } })).json<{
    id: string;
  }>();
const newKey = async (accountId: string) =>
  (await op(`/accounts/${accountId}/keys`, { method: "POST", body: {} })).json<{ id: string; secret: string }>();

describe("operator API access", () => {
  it("does not exist without OPERATOR_SECRET (404)", async () => {
    expect((await call("/operator/v1/accounts", { headers: bearer(SECRET) })).status).toBe(404);
  });

  it("401 without the secret or with a wrong one", async () => {
    expect((await call("/operator/v1/accounts", {}, withSecret)).status).toBe(401);
    const wrong = await op("/accounts", {}, "operator-secret-for-tests-0123456789abcdeX");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: "invalid_token" });
  });

  it("refuses unknown query parameters, as every route does (issue 24, item 12)", async () => {
    const accounts = await op("/accounts?email=x");
    expect(accounts.status).toBe(400);
    expect(await accounts.json()).toMatchObject({ code: "unknown_parameter", errors: [{ parameter: "email" }] });
    const pending = await op("/admin-requests?account=x");
    expect(await pending.json()).toMatchObject({ code: "unknown_parameter", errors: [{ parameter: "account" }] });
  });

  it("answers 401 to any method and path without the secret, so the surface cannot be mapped", async () => {
    const probes: [string, string][] = [
      ["DELETE", "/operator/v1/deployment"],
      ["PATCH", "/operator/v1/accounts"],
      ["OPTIONS", "/operator/v1/accounts"],
      ["GET", "/operator/v1/no-such-thing"],
      ["POST", "/operator/v1/keys/key_live_AAAAAAAAAAAAAAAAAAAA/limits"],
    ];
    for (const [method, path] of probes) {
      const res = await call(path, { method }, withSecret);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.get("Allow"), `${method} ${path}`).toBeNull();
    }
    const withIt = await call("/operator/v1/deployment", { method: "DELETE", headers: bearer(SECRET) }, withSecret);
    expect([withIt.status, withIt.headers.get("Allow")]).toEqual([405, "GET, HEAD, OPTIONS"]);
  });

  describe("failed secrets are throttled per address, as sign-in is", () => {
    afterEach(() => vi.restoreAllMocks());
    const from = (ip: string, secret: string) =>
      call("/operator/v1/deployment", { headers: { ...bearer(secret), "CF-Connecting-IP": ip } }, withSecret);

    it("10 wrong secrets are 401; then 429 with Retry-After, the right secret included, logged once as a lockout", async () => {
      const warn = vi.spyOn(console, "warn");
      const ip = freshIp();
      const statuses = [];
      for (let i = 0; i < 12; i++)
        statuses.push((await from(ip, `wrong-secret-${i}-0123456789abcdef0123456789`)).status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual([429, 429]);
      const locked = await from(ip, SECRET);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
      const lines = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("operator_auth"));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(expectDefined(lines[0], "the lockout line"))).toMatchObject({
        level: "warn",
        event: "lockout",
        surface: "operator_auth",
      });
      expect(lines[0]).not.toContain("wrong-secret");
      expect((await from(freshIp(), SECRET)).status).toBe(200);
    });

    it("a missing secret guesses nothing and is not counted", async () => {
      const ip = freshIp();
      for (let i = 0; i < 12; i++)
        expect(
          (await call("/operator/v1/deployment", { headers: { "CF-Connecting-IP": ip } }, withSecret)).status,
        ).toBe(401);
      expect((await from(ip, SECRET)).status).toBe(200);
    });
  });

  it("is not in /openapi.json", async () => {
    expect(await (await call("/openapi.json", {}, withSecret)).text()).not.toContain("/operator");
  });
});

describe("accounts and keys through the operator API", () => {
  it("checks a new key's body as POST /v1/keys does: name length and this deployment's mode", async () => {
    const account = await newAccount();
    const tooLong = await op(`/accounts/${account.id}/keys`, { method: "POST", body: { name: "x".repeat(101) } });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ code: "bad_request", detail: expect.stringMatching(/name/) });
    const test = await op(`/accounts/${account.id}/keys`, { method: "POST", body: { mode: "test" } });
    expect(await test.json()).toMatchObject({
      code: "wrong_key_mode",
      detail: "The production deployment creates live keys only; create test keys on the sandbox deployment.",
    });
  });

  it("creates an account, a key with a secret shown once, lists and revokes it by key id", async () => {
    const created = await op("/accounts", {
      method: "POST",
      body: { email: email(), password: "long enough password", name: "Acme" },
    });
    expect(created.status).toBe(201);
    const account = await created.json<{ id: string; roles: string[] }>();
    expect(account.roles).toEqual(["customer"]);

    const keyRes = await op(`/accounts/${account.id}/keys`, {
      method: "POST",
      body: { scopes: ["read:catalog"], name: "ops" },
    });
    expect(keyRes.status).toBe(201);
    const key = await keyRes.json<{ id: string; secret: string; mode: string }>();
    expect(key.mode).toBe("live");
    expect((await call("/v1/keys", { headers: bearer(key.secret) })).status).toBe(200);

    const list = await (await op(`/accounts/${account.id}/keys`)).text();
    expect(list).toContain(key.id);
    expect(list).not.toContain(key.secret);

    const revoked = await op(`/keys/${key.id}/revocation`, { method: "POST" });
    expect(await revoked.json()).toMatchObject({ id: key.id, status: "revoked" });
    expect((await call("/v1/keys", { headers: bearer(key.secret) })).status).toBe(401);

    const accounts = await (await op("/accounts")).json<{ data: { id: string }[] }>();
    expect(accounts.data.map((a) => a.id)).toContain(account.id);
  });

  it("grants admin only after approve-admin", async () => {
    const account = await newAccount();
    const refused = await op(`/accounts/${account.id}/keys`, {
      method: "POST",
      body: { scopes: ["admin", "read:catalog"] },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "admin_not_approved" });

    expect(await (await op(`/accounts/${account.id}/admin-approval`, { method: "POST" })).json()).toMatchObject({
      admin_approved: true,
    });
    const admin = await op(`/accounts/${account.id}/keys`, {
      method: "POST",
      body: { scopes: ["admin", "read:catalog"] },
    });
    expect(admin.status).toBe(201);
    const { secret } = await admin.json<{ secret: string }>();
    // An admin key may create admin keys itself.
    const child = await call("/v1/keys", {
      method: "POST",
      headers: { ...bearer(secret), "Content-Type": "application/json" },
      body: '{"scopes":["admin"]}',
    });
    expect(child.status).toBe(201);
  });

  it("sets and removes a per-key rate-limit override", async () => {
    const account = await newAccount();
    const key = await newKey(account.id);
    expect(await (await op(`/keys/${key.id}/limits`, { method: "PUT", body: { rate: 5, burst: 10 } })).json()).toEqual({
      key_id: key.id,
      policy_override: { rate: 5, burst: 10 },
    });
    expect((await call("/v2/cheeses", { headers: bearer(key.secret) })).headers.get("ratelimit-policy")).toBe(
      '"default";q=10;w=2',
    );
    expect((await op(`/keys/${key.id}/limits`, { method: "DELETE" })).status).toBe(200);
    expect((await call("/v2/cheeses", { headers: bearer(key.secret) })).headers.get("ratelimit-policy")).toBe(
      '"default";q=100;w=1',
    );
  });

  it("puts a key in strict admission (every request asks its SubjectGuard) and back to leases", async () => {
    const account = await newAccount();
    const key = await newKey(account.id);
    expect(await (await op(`/keys/${key.id}/admission`, { method: "PUT", body: { strict: true } })).json()).toEqual({
      key_id: key.id,
      strict: true,
    });
    for (let i = 0; i < 5; i++) await call("/v2/cheeses", { headers: bearer(key.secret) });
    const counted = countingEnv({ OPERATOR_SECRET: SECRET });
    expect((await call("/v2/cheeses", { headers: bearer(key.secret) }, counted.env)).status).toBe(200);
    expect(counted.calls).toEqual(["SUBJECT_GUARDS.getByName"]);
    expect(await (await op(`/keys/${key.id}/admission`, { method: "PUT", body: { strict: false } })).json()).toEqual({
      key_id: key.id,
      strict: false,
    });
    expect((await op(`/keys/${key.id}/admission`, { method: "PUT", body: { strict: "yes" } })).status).toBe(400);
    expect(
      (await op("/keys/key_live_AAAAAAAAAAAAAAAAAAAA/admission", { method: "PUT", body: { strict: true } })).status,
    ).toBe(404);
  });

  it("answers precise problems: duplicate email, bad input, unknown ids", async () => {
    const address = email();
    await op("/accounts", { method: "POST", body: { email: address, password: "long enough password" } });
    const duplicate = await op("/accounts", {
      method: "POST",
      body: { email: address.toUpperCase(), password: "long enough password" },
    });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toMatchObject({ code: "account_exists" });
    const short = await op("/accounts", { method: "POST", body: { email: email(), password: "short" } });
    expect(await short.json()).toMatchObject({ code: "bad_request", detail: "password: use at least 10 characters" });
    expect((await op("/accounts/acct_AAAAAAAAAAAAAAAAAAAA/keys")).status).toBe(404);
    expect((await op("/keys/key_live_AAAAAAAAAAAAAAAAAAAA/revocation", { method: "POST" })).status).toBe(404);
    expect(
      (await op("/keys/key_live_AAAAAAAAAAAAAAAAAAAA/limits", { method: "PUT", body: { rate: 0, burst: 1 } })).status,
    ).toBe(400);
  });
});

describe("withdrawing an account's admin clearance", () => {
  it("DELETE …/admin-approval: no new admin key, and the active ones carrying admin are revoked at once", async () => {
    const account = await newAccount();
    expect((await op(`/accounts/${account.id}/admin-approval`, { method: "POST" })).status).toBe(200);
    const admin = await (
      await op(`/accounts/${account.id}/keys`, { method: "POST", body: { scopes: ["read:cheeses", "admin"] } })
    ).json<{ id: string; secret: string }>();
    const plain = await (
      await op(`/accounts/${account.id}/keys`, { method: "POST", body: { scopes: ["read:cheeses"] } })
    ).json<{ id: string; secret: string }>();

    const withdrawn = await op(`/accounts/${account.id}/admin-approval`, { method: "DELETE" });
    expect(withdrawn.status).toBe(200);
    const body = await withdrawn.json<{
      account: { admin_approved: boolean };
      revoked: { id: string; status: string }[];
    }>();
    expect(body.account.admin_approved).toBe(false);
    expect(body.revoked).toEqual([expect.objectContaining({ id: admin.id, status: "revoked" })]);
    expect((await call("/v2/cheeses", { headers: bearer(admin.secret) })).status).toBe(401);
    expect((await call("/v2/cheeses", { headers: bearer(plain.secret) })).status).toBe(200);
    const again = await op(`/accounts/${account.id}/keys`, { method: "POST", body: { scopes: ["admin"] } });
    expect(again.status).toBe(403);
    expect(await again.json()).toMatchObject({ code: "admin_not_approved" });
  });
});
