/** Webhook endpoint requests that are refused: each problem listed, nothing stored. */
import { describe, expect, it } from "vitest";
import { webhookCaller, postJson } from "./webhooks-support";
import { call } from "./auth-fixtures";

interface ProblemBody {
  code: string;
  detail: string;
  errors?: { path: string; message: string }[];
}

describe("POST /v1/webhook_endpoints refusals", () => {
  it("lists every problem of the body at once and stores nothing", async () => {
    const caller = await webhookCaller();
    const response = await call(
      "/v1/webhook_endpoints",
      postJson(caller.secret, { url: "ftp://user:pw@example.com/#x", events: ["release.deleted"], extra: 1 }),
    );
    expect(response.status).toBe(400);
    const problem = await response.json<ProblemBody>();
    expect(problem.code).toBe("bad_request");
    expect(problem.errors!.map((error) => error.path).sort()).toEqual(["events.0", "extra", "url", "url", "url"]);
    expect((await (await caller.as("/v1/webhook_endpoints")).json<{ data: unknown[] }>()).data).toEqual([]);
  });

  it("refuses an unknown query parameter", async () => {
    const caller = await webhookCaller();
    const list = await caller.as("/v1/webhook_endpoints?limit=5");
    expect(list.status).toBe(400);
    const problem = await list.json<ProblemBody>();
    expect(problem.code).toBe("unknown_parameter");
    expect(problem.errors).toEqual([
      expect.objectContaining({
        path: "limit",
        message: 'unknown query parameter "limit": this route takes no query parameters',
      }),
    ]);
  });

  it("allows at most 5 endpoints per account (409), counted atomically", async () => {
    const caller = await webhookCaller();
    const attempts = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        call("/v1/webhook_endpoints", postJson(caller.secret, { url: `https://example.com/${i}` })),
      ),
    );
    const statuses = attempts.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 409, 409]);
    const refused = attempts.find((response) => response.status === 409)!;
    expect(await refused.json<ProblemBody>()).toMatchObject({ code: "webhook_endpoint_limit_reached" });
  });

  it("answers 404 for an endpoint of another account and 400 for a malformed id", async () => {
    const [owner, other] = [await webhookCaller(), await webhookCaller()];
    const endpoint = await owner.register("https://example.com/hook");
    for (const [method, suffix] of [
      ["GET", ""],
      ["DELETE", ""],
      ["POST", "/rotate_secret"],
      ["GET", "/deliveries"],
    ] as const) {
      const response = await other.as(`/v1/webhook_endpoints/${endpoint.id}${suffix}`, { method });
      expect(response.status, `${method} ${suffix}`).toBe(404);
      expect((await response.json<ProblemBody>()).code).toBe("webhook_endpoint_not_found");
    }
    expect((await owner.as(`/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
    expect((await owner.as("/v1/webhook_endpoints/we_nope")).status).toBe(400);
    expect((await owner.as(`/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=0`)).status).toBe(400);
    expect((await owner.as(`/v1/webhook_endpoints/${endpoint.id}/deliveries?page=2`)).status).toBe(400);
  });
});
