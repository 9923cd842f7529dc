/**
 * A path the API serves, asked with a method it does not serve: 405 with Allow (RFC 9110 §15.5.6),
 * derived from the registered routes; OPTIONS answers Allow (§9.3.7). An unknown path stays a 404.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectProblem } from "./support/problems";

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
