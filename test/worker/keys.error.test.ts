/** /v1/keys refusals: each one a problem with a stable code and a detail that says what to do. */
import { describe, expect, it } from "vitest";
import { accountWithKey, bearer, call, freshIp } from "./auth-fixtures";

type Problem = { code: string; detail: string; status: number };
const post = (secret: string, body?: unknown, raw?: string) => ({
  method: "POST",
  headers: {
    ...bearer(secret),
    ...(body === undefined && raw === undefined ? {} : { "Content-Type": "application/json" }),
  },
  body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
});

describe("POST /v1/keys refusals", () => {
  it("409 key_limit_reached once 3 keys are active; a revocation frees a slot", async () => {
    const { secret, key } = await accountWithKey();
    expect((await call("/v1/keys", post(secret, {}))).status).toBe(201);
    const third = await (await call("/v1/keys", post(secret, {}))).json<{ id: string }>();
    const refused = await call("/v1/keys", post(secret, {}));
    expect(refused.status).toBe(409);
    const problem = await refused.json<Problem>();
    expect(problem.code).toBe("key_limit_reached");
    expect(problem.detail).toMatch(/3 active keys \(at most 3\).*Revoke one first/);

    expect((await call(`/v1/keys/${third.id}`, { method: "DELETE", headers: bearer(secret) })).status).toBe(200);
    expect((await call("/v1/keys", post(secret, {}))).status).toBe(201);
    expect(key.status).toBe("active");
  });

  it("400 wrong_key_mode for a test key on production, saying where test keys are made", async () => {
    const { secret } = await accountWithKey();
    const res = await call("/v1/keys", post(secret, { mode: "test" }));
    expect(res.status).toBe(400);
    expect(await res.json<Problem>()).toMatchObject({
      code: "wrong_key_mode",
      detail: expect.stringMatching(/sandbox/),
    });
  });

  it("403 insufficient_scope when asking for a scope the calling key lacks, naming it in the challenge", async () => {
    const { secret } = await accountWithKey({ scopes: ["read:catalog", "read:cheeses"] });
    const res = await call("/v1/keys", post(secret, { scopes: ["read:cheeses", "write:orders"] }));
    expect(res.status).toBe(403);
    expect(await res.json<Problem>()).toMatchObject({
      code: "insufficient_scope",
      detail: expect.stringMatching(/lacks write:orders/),
    });
    expect(res.headers.get("www-authenticate")).toBe(
      'Bearer realm="readiness-catalog-production", error="insufficient_scope", scope="write:orders"',
    );
  });

  it("never hands out admin through a key that does not hold it", async () => {
    const { secret } = await accountWithKey();
    const res = await call("/v1/keys", post(secret, { scopes: ["admin"] }));
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('scope="admin"');
  });

  it("a restricted key without a scope list creates a key restricted the same way", async () => {
    const { secret } = await accountWithKey({ scopes: ["read:cheeses"] });
    const res = await call("/v1/keys", post(secret));
    expect(res.status).toBe(201);
    expect((await res.json<{ scopes: string[] }>()).scopes).toEqual(["read:cheeses"]);
  });

  it.each([
    [{ scopes: ["read:everything"] }, /scopes\.0/],
    [{ scopes: [] }, /scopes/],
    [{ name: "" }, /name/],
    [{ name: "x".repeat(101) }, /name/],
    [{ mode: "production" }, /mode/],
    [{ secret: "sk_live_mine" }, /secret|Unrecognized/],
  ])("400 bad_request for body %j, naming the field", async (body, field) => {
    const { secret } = await accountWithKey();
    const res = await call("/v1/keys", post(secret, body));
    expect(res.status).toBe(400);
    const problem = await res.json<Problem>();
    expect(problem.code).toBe("bad_request");
    expect(problem.detail).toMatch(field);
  });

  it("400 lists every invalid field at once, each with its path, message and code; nothing is created", async () => {
    const { secret } = await accountWithKey();
    const res = await call("/v1/keys", post(secret, { name: "", scopes: ["nope"], mode: "production", colour: "red" }));
    expect(res.status).toBe(400);
    const problem = await res.json<Problem & { errors: { path: string; message: string; code: string }[] }>();
    expect(problem.code).toBe("bad_request");
    expect(problem.errors.map((error) => error.path).sort()).toEqual(["colour", "mode", "name", "scopes.0"]);
    for (const error of problem.errors) {
      expect(error.message.length).toBeGreaterThan(0);
      expect(error.code).toBe("bad_request");
      expect(problem.detail).toContain(`${error.path}: `);
    }
    expect(problem.detail).toMatch(/^4 problems in the request body: /);
    expect(problem.errors.find((error) => error.path === "colour")).toMatchObject({
      code: "bad_request",
      message: 'unknown field "colour"',
    });
    const keys = await (await call("/v1/keys", { headers: bearer(secret) })).json<{ data: unknown[] }>();
    expect(keys.data).toHaveLength(1);
  });

  it("400 with one invalid field keeps the short detail and an errors list of one", async () => {
    const { secret } = await accountWithKey();
    const problem = await (await call("/v1/keys", post(secret, { scopes: ["nope"] }))).json<
      Problem & { errors: { path: string }[] }
    >();
    expect(problem.detail).toMatch(/^scopes\.0: /);
    expect(problem.errors).toHaveLength(1);
  });

  it("400 for a body that is not JSON", async () => {
    const { secret } = await accountWithKey();
    const res = await call("/v1/keys", post(secret, undefined, "{not json"));
    expect(res.status).toBe(400);
    expect(await res.json<Problem>()).toMatchObject({
      code: "bad_request",
      detail: expect.stringMatching(/Malformed JSON/),
    });
  });

  it.each([
    ["text/plain", "hello"],
    ["application/x-www-form-urlencoded", "name=CI"],
    ["multipart/form-data; boundary=x", "--x--"],
  ])("415 unsupported_media_type for a %s body, naming what is accepted, creating nothing", async (type, body) => {
    const { secret } = await accountWithKey();
    const res = await call("/v1/keys", { method: "POST", headers: { ...bearer(secret), "Content-Type": type }, body });
    expect(res.status).toBe(415);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("accept")).toBe("application/json");
    expect(await res.json<Problem>()).toMatchObject({
      code: "unsupported_media_type",
      status: 415,
      detail: expect.stringMatching(/application\/json/),
    });
    const keys = await (await call("/v1/keys", { headers: bearer(secret) })).json<{ data: unknown[] }>();
    expect(keys.data).toHaveLength(1);
  });

  it("401 without a key, before looking at the body", async () => {
    const res = await call("/v1/keys", {
      method: "POST",
      body: "{not json",
      headers: { "CF-Connecting-IP": freshIp() },
    });
    expect(res.status).toBe(401);
    expect((await res.json<Problem>()).code).toBe("unauthenticated");
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="readiness-catalog-production"');
  });
});

describe("DELETE /v1/keys/{id} refusals", () => {
  it("404 key_not_found for a well-formed id that is not the account's", async () => {
    const { secret } = await accountWithKey();
    const res = await call("/v1/keys/key_live_AAAAAAAAAAAAAAAAAAAA", { method: "DELETE", headers: bearer(secret) });
    expect(res.status).toBe(404);
    expect((await res.json<Problem>()).code).toBe("key_not_found");
  });

  it("400 for something that is not a key id (e.g. a secret pasted by mistake), without echoing it", async () => {
    const { secret } = await accountWithKey();
    const res = await call(`/v1/keys/${secret}`, { method: "DELETE", headers: bearer(secret) });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toMatch(/key id looks like/);
    expect(text).not.toContain(secret);
  });
});

describe("request bodies past the limit", () => {
  const oneMiB = `{"name":"${"a".repeat(1 << 20)}"}`;
  const stream = (text: string) => new Blob([text]).stream();

  it.each([
    ["with Content-Length", () => oneMiB],
    ["streamed, without Content-Length", () => stream(oneMiB)],
  ])("413 content_too_large for a 1 MiB body %s, before it is parsed; nothing is created", async (_, body) => {
    const { secret } = await accountWithKey();
    const res = await call("/v1/keys", {
      method: "POST",
      headers: { ...bearer(secret), "Content-Type": "application/json" },
      body: body(),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json<Problem>()).toMatchObject({
      code: "content_too_large",
      detail: expect.stringMatching(/65536 bytes/),
    });
    const keys = await (await call("/v1/keys", { headers: bearer(secret) })).json<{ data: unknown[] }>();
    expect(keys.data).toHaveLength(1);
  });
});
