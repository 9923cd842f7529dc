/** GET /v2/cheeses needs a valid credential with read:cheeses. */
import { describe, expect, it } from "vitest";
import { accountWithKey, bearer, call } from "./auth-fixtures";

describe("GET /v2/cheeses access", () => {
  it("401 without credentials: the challenge names the realm and no error (RFC 6750 §3.1)", async () => {
    const res = await call("/v2/cheeses");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="readiness-catalog-production"');
    const problem = await res.json<{ code: string; request_id: string; type: string }>();
    expect(problem).toMatchObject({ code: "unauthenticated", type: "https://api.test/docs/errors#unauthenticated" });
    expect(problem.request_id).toBe(res.headers.get("request-id"));
  });

  it("403 insufficient_scope for a restricted key without read:cheeses, naming the scope", async () => {
    const { secret } = await accountWithKey({ scopes: ["read:catalog", "read:orders"] });
    const res = await call("/v2/cheeses", { headers: bearer(secret) });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toBe(
      'Bearer realm="readiness-catalog-production", error="insufficient_scope", scope="read:cheeses"',
    );
    const problem = await res.json<{ code: string; detail: string; required_scope: string }>();
    expect(problem.code).toBe("insufficient_scope");
    expect(problem.required_scope).toBe("read:cheeses");
    expect(problem.detail).toBe(
      `This request needs the read:cheeses scope. The API key ending in ${secret.slice(-4)} has read:catalog, read:orders. Use a key that has read:cheeses (POST /v1/keys creates one).`,
    );
    // The request was authenticated and counted: the limiter's headers are there.
    expect(res.headers.get("ratelimit")).toBe('"default";r=99;t=1');
  });

  it("200 for a key restricted to read:cheeses alone", async () => {
    const { secret } = await accountWithKey({ scopes: ["read:cheeses"] });
    expect((await call("/v2/cheeses", { headers: bearer(secret) })).status).toBe(200);
  });
});
