/**
 * HTTP semantics every route shares (RFC 9110). A path the API serves, asked with a method it does
 * not serve: 405 with Allow (§15.5.6), derived from the registered routes; OPTIONS answers Allow
 * (§9.3.7); an unknown path stays a 404. If-Match on the routes that send no validator (/v1/keys,
 * /v2/cheeses): no entity tag can match, so a listed tag fails before anything changes (§13.1.1:
 * 412); `*` holds. onError: an HTTPException keeps its own status, rendered as problem+json (a 5xx
 * as our internal error).
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectProblem } from "./support/problems";
import { accountWithKey, bearer, call } from "./auth-fixtures";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import app from "../../src/worker/index";
import { answerError } from "../../src/worker/answer-error";
import type { AppEnv } from "../../src/worker/http/context";

const RELEASE = `sha256:${"a".repeat(64)}`;
const send = (method: string, path: string) =>
  exports.default.fetch(new Request(`https://api.test${path}`, { method }));

describe("405 Method Not Allowed", () => {
  it.each([
    ["POST", "/v1/catalog", "GET, HEAD, OPTIONS"],
    ["PUT", "/v1/catalog", "GET, HEAD, OPTIONS"],
    ["DELETE", "/v1/catalog", "GET, HEAD, OPTIONS"],
    ["PATCH", "/v1/catalog/parts/0", "GET, HEAD, OPTIONS"],
    ["POST", `/v1/releases/${RELEASE}`, "GET, HEAD, OPTIONS"],
    ["DELETE", `/v1/releases/${RELEASE}/parts/3`, "GET, HEAD, OPTIONS"],
    ["DELETE", "/v2/cheeses", "GET, HEAD, OPTIONS"],
    ["POST", "/.well-known/oauth-authorization-server", "GET, HEAD, OPTIONS"],
    ["PUT", "/v1/keys", "GET, HEAD, OPTIONS, POST"],
    ["GET", "/v1/keys/key_live_AAAAAAAAAAAAAAAAAAAA", "DELETE, OPTIONS"],
    ["GET", "/oauth/token", "OPTIONS, POST"],
    ["GET", "/oauth/revoke", "OPTIONS, POST"],
    ["DELETE", "/openapi.json", "GET, HEAD, OPTIONS"],
  ])("%s %s → 405, Allow: %s", async (method, path, allow) => {
    const res = await send(method, path);
    const problem = await expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toBe(allow);
    expect(problem.detail).toContain(method);
    expect(problem.detail).toContain(allow);
  });

  it("HEAD on a path served only by POST → 405 without a body", async () => {
    const res = await send("HEAD", "/oauth/token");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("OPTIONS, POST");
    expect(await res.text()).toBe("");
  });

  it("an unknown path is still 404, whatever the method", async () => {
    await expectProblem(await send("DELETE", "/v1/nothing-here"), 404, "not_found");
    await expectProblem(await send("GET", "/v1/catalog/"), 404, "not_found");
  });
});

describe("OPTIONS", () => {
  it.each([
    ["/v1/catalog", "GET, HEAD, OPTIONS"],
    ["/v1/keys", "GET, HEAD, OPTIONS, POST"],
  ])("OPTIONS %s → 204 with Allow: %s", async (path, allow) => {
    const res = await send("OPTIONS", path);
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe(allow);
    expect(await res.text()).toBe("");
  });

  it("OPTIONS on an unknown path is a 404", async () => {
    await expectProblem(await send("OPTIONS", "/v1/nothing-here"), 404, "not_found");
  });
});

const TAG = '"key_live_AAAAAAAAAAAAAAAAAAAA"';
const keysOf = async (secret: string) =>
  (await (await call("/v1/keys", { headers: bearer(secret) })).json<{ data: { id: string; status: string }[] }>()).data;

describe("If-Match where no ETag is ever sent", () => {
  it("DELETE /v1/keys/{id} with a tag → 412 and the key stays active; with * it is revoked", async () => {
    const { secret, key } = await accountWithKey();
    const refused = await call(`/v1/keys/${key.id}`, {
      method: "DELETE",
      headers: { ...bearer(secret), "If-Match": TAG },
    });
    const problem = await expectProblem(refused, 412, "precondition_failed");
    expect(problem.detail).toMatch(/no ETag/);
    expect((await keysOf(secret))[0]?.status).toBe("active");
    const revoked = await call(`/v1/keys/${key.id}`, {
      method: "DELETE",
      headers: { ...bearer(secret), "If-Match": "*" },
    });
    expect(revoked.status).toBe(200);
  });

  it("POST /v1/keys with a tag → 412 and no key is created", async () => {
    const { secret } = await accountWithKey();
    const headers = { ...bearer(secret), "Content-Type": "application/json", "If-Match": TAG };
    await expectProblem(await call("/v1/keys", { method: "POST", headers, body: "{}" }), 412, "precondition_failed");
    expect(await keysOf(secret)).toHaveLength(1);
  });

  it.each(["/v1/keys", "/v2/cheeses"])("GET %s with a tag → 412; with * → 200", async (path) => {
    const { secret } = await accountWithKey();
    await expectProblem(
      await call(path, { headers: { ...bearer(secret), "If-Match": TAG } }),
      412,
      "precondition_failed",
    );
    expect((await call(path, { headers: { ...bearer(secret), "If-Match": "*" } })).status).toBe(200);
  });

  it("authentication comes first: no credential is still 401", async () => {
    expect((await call("/v1/keys", { headers: { "If-Match": TAG } })).status).toBe(401);
  });
});

// The real app's routes, middleware and onError, plus a route that throws what the test asks for:
// on a copy, since the app's own router is built at its first request and the test files share it.
const probe = new Hono<AppEnv>().route("/", app);
probe.onError(answerError);
probe.get("/test-only/http-exception/:status", (c) => {
  throw new HTTPException(Number(c.req.param("status")) as 400, { message: "Refused by the test route" });
});
const thrown = (status: number) => probe.request(`https://api.test/test-only/http-exception/${status}`, {}, env);

describe("an HTTPException thrown by a route", () => {
  it.each([
    [400, "bad_request"],
    [403, "forbidden"],
    [404, "not_found"],
    [412, "precondition_failed"],
    [413, "content_too_large"],
    [415, "unsupported_media_type"],
    [422, "bad_request"],
  ] as const)("%i is a problem+json of that status with code %s", async (status, code) => {
    const res = await thrown(status);
    expect(res.status).toBe(status);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ status, code, request_id: res.headers.get("Request-Id") });
  });

  it.each([500, 503])("%i is our internal error, with its status and no internal detail", async (status) => {
    const res = await thrown(status);
    expect(res.status).toBe(status);
    const body = await res.json<{ code: string; detail: string }>();
    expect(body).toMatchObject({ status, code: "internal_error" });
    expect(body.detail).not.toContain("Refused by the test route");
  });
});
