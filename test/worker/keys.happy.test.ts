/** /v1/keys as a customer uses it: create, list, revoke, and the rotation recipe end to end. */
import { describe, expect, it } from "vitest";
import { DEFAULT_KEY_SCOPES } from "../../src/common/auth/scopes";
import { expectDefined } from "../../src/common/expect";
import { accountWithKey, bearer, call } from "./auth-fixtures";

interface CreatedKey {
  id: string;
  secret: string;
  name: string | null;
  mode: string;
  scopes: string[];
  status: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
}
const json = (body: unknown) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});
const withKey = (secret: string, init: RequestInit = {}) => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), ...bearer(secret) },
});

describe("POST /v1/keys", () => {
  it("creates a live key on production with the default scopes and shows its secret once", async () => {
    const { secret } = await accountWithKey();
    const res = await call("/v1/keys", withKey(secret, json({ name: "CI" })));
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const created = await res.json<CreatedKey>();
    expect(created).toMatchObject({
      name: "CI",
      mode: "live",
      status: "active",
      scopes: [...DEFAULT_KEY_SCOPES],
      last_used_at: null,
    });
    expect(created.id).toMatch(/^key_live_[0-9A-Za-z]{20}$/);
    expect(created.secret).toMatch(/^sk_live_[0-9A-Za-z]{36}$/);
    expect(created.last4).toBe(created.secret.slice(-4));

    const works = await call("/v2/cheeses", withKey(created.secret));
    expect(works.status).toBe(200);
  });

  it("creates a restricted key with fewer scopes, and without a body", async () => {
    const { secret } = await accountWithKey();
    const restricted = await (
      await call("/v1/keys", withKey(secret, json({ scopes: ["read:catalog"] })))
    ).json<CreatedKey>();
    expect(restricted.scopes).toEqual(["read:catalog"]);
    const plain = await call("/v1/keys", withKey(secret, { method: "POST" }));
    expect(plain.status).toBe(201);
    expect((await plain.json<CreatedKey>()).name).toBeNull();
  });
});

describe("GET /v1/keys", () => {
  it("lists the account's keys with id, name, mode, last4, scopes, status, created and last used, never a secret", async () => {
    const first = await accountWithKey();
    await call("/v2/cheeses", withKey(first.secret));
    const second = await (await call("/v1/keys", withKey(first.secret, json({ name: "second" })))).json<CreatedKey>();

    const res = await call("/v1/keys", withKey(first.secret));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(first.secret);
    expect(text).not.toContain(second.secret);
    const { data } = JSON.parse(text) as { data: (CreatedKey & { secret?: string })[] };
    expect(data.map((k) => k.id)).toEqual([first.key.id, second.id]);
    for (const key of data) {
      expect(Object.keys(key).sort()).toEqual([
        "created_at",
        "id",
        "last4",
        "last_used_at",
        "mode",
        "name",
        "revoked_at",
        "scopes",
        "status",
      ]);
    }
    expect(data[0]).toMatchObject({
      last4: first.secret.slice(-4),
      last_used_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it("never shows a use before the key's creation: minute resolution, but not earlier than created_at", async () => {
    const { secret, key } = await accountWithKey();
    expect((await call("/v2/cheeses", withKey(secret))).status).toBe(200);
    const { data } = await (await call("/v1/keys", withKey(secret))).json<{ data: CreatedKey[] }>();
    const listed = expectDefined(
      data.find((k) => k.id === key.id),
      "the key in its own list",
    );
    const lastUsed = expectDefined(listed.last_used_at, "last_used_at after a use");
    // Used in the minute it was created, the start of that minute would precede created_at:
    // last_used_at is created_at then (or, past a minute boundary, the start of the next minute).
    expect(Date.parse(lastUsed)).toBeGreaterThanOrEqual(Date.parse(listed.created_at));
    expect(Date.parse(lastUsed)).toBeLessThanOrEqual(Date.now());
    expect(lastUsed === key.created_at || lastUsed.endsWith(":00.000Z")).toBe(true);
  });
});

describe("DELETE /v1/keys/{id}", () => {
  it("revokes at once: the very next request with the key is 401 revoked_api_key", async () => {
    const { secret, accountId } = await accountWithKey();
    const other = await (await call("/v1/keys", withKey(secret, json({})))).json<CreatedKey>();
    expect((await call("/v2/cheeses", withKey(other.secret))).status).toBe(200);

    const res = await call(`/v1/keys/${other.id}`, withKey(secret, { method: "DELETE" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: other.id, status: "revoked" });

    const next = await call("/v2/cheeses", withKey(other.secret));
    expect(next.status).toBe(401);
    expect(await next.json()).toMatchObject({ code: "revoked_api_key" });
    expect(next.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(accountId).toBeTruthy();
  });

  it("lets a key revoke itself, and answers the same again (idempotent)", async () => {
    const { secret, key } = await accountWithKey();
    const helper = await (await call("/v1/keys", withKey(secret, json({})))).json<CreatedKey>();
    expect((await call(`/v1/keys/${key.id}`, withKey(secret, { method: "DELETE" }))).status).toBe(200);
    expect((await call("/v1/keys", withKey(secret))).status).toBe(401);
    const again = await call(`/v1/keys/${key.id}`, withKey(helper.secret, { method: "DELETE" }));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: "revoked" });
  });
});

describe("rotation (auth spec: generate a new key, deploy it while both work, revoke the old)", () => {
  it("keeps the service working at every step", async () => {
    const { secret: oldSecret, key: oldKey } = await accountWithKey();
    // 1. Create the new key with the old one.
    const fresh = await (await call("/v1/keys", withKey(oldSecret, json({ name: "rotated" })))).json<CreatedKey>();
    // 2. Deploy: both keys work at the same time.
    expect((await call("/v2/cheeses", withKey(oldSecret))).status).toBe(200);
    expect((await call("/v2/cheeses", withKey(fresh.secret))).status).toBe(200);
    // 3. Revoke the old key with the new one.
    expect((await call(`/v1/keys/${oldKey.id}`, withKey(fresh.secret, { method: "DELETE" }))).status).toBe(200);
    expect((await call("/v2/cheeses", withKey(oldSecret))).status).toBe(401);
    expect((await call("/v2/cheeses", withKey(fresh.secret))).status).toBe(200);
    const { data } = await (await call("/v1/keys", withKey(fresh.secret))).json<{ data: CreatedKey[] }>();
    expect(data.map((k) => [k.id, k.status])).toEqual([
      [oldKey.id, "revoked"],
      [fresh.id, "active"],
    ]);
  });
});
