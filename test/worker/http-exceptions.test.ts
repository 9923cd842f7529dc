/** onError: an HTTPException keeps its own status, rendered as problem+json (a 5xx as our internal error). */
import { env } from "cloudflare:workers";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import app from "../../src/worker/index";

// A route of the real app (its middleware and onError) that throws what the test asks for.
app.get("/test-only/http-exception/:status", (c) => {
  throw new HTTPException(Number(c.req.param("status")) as 400, { message: "Refused by the test route" });
});
const thrown = (status: number) => app.request(`https://api.test/test-only/http-exception/${status}`, {}, env);

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
