import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

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
