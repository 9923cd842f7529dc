import { exports } from "cloudflare:workers";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import { problemOfHttpException } from "../../src/worker/http/http-exception";

describe("worker", () => {
  it("answers an unknown route with a 404 problem carrying the request id", async () => {
    const res = await exports.default.fetch("https://api.test/nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = await res.json<{ code: string; request_id: string }>();
    expect(body.code).toBe("not_found");
    expect(body.request_id).toBe(res.headers.get("request-id"));
  });
});

describe("HTTPExceptions from Hono and zod-openapi", () => {
  it.each([
    [400, "bad_request"],
    [403, "forbidden"],
    [404, "not_found"],
    [415, "unsupported_media_type"],
  ] as const)("%i keeps its status as the problem %s", (status, code) => {
    const problem = problemOfHttpException(new HTTPException(status, { message: "Refused" }), "text/plain");
    expect(problem?.code).toBe(code);
    expect(problem?.status).toBe(status);
  });

  it("a 5xx is ours, not the client's: left to the internal-error path", () => {
    expect(problemOfHttpException(new HTTPException(500, { message: "Cannot clone request" }), undefined)).toBeNull();
  });
});
