/** GET /v2/cheeses: the authentication spec's example request, working as written; it needs a valid credential with read:cheeses. */
import { describe, expect, it } from "vitest";
import collection from "../../data/cheeses.json";
import { accountWithKey, bearer, call } from "./auth-fixtures";
import { operationOf, pathItem } from "./support/openapi";

describe("GET /v2/cheeses", () => {
  it('answers `curl {base_url}/v2/cheeses -H "Authorization: Bearer <API_KEY>"` with the collection', async () => {
    const { secret } = await accountWithKey();
    const res = await call("/v2/cheeses", { headers: { Authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("private, max-age=60");
    expect(res.headers.get("request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    expect(res.headers.get("ratelimit-policy")).toBe('"default";q=100;w=1');
    const body = await res.json<{ data: { id: string; name: string }[] }>();
    expect(body.data).toEqual(collection);
    expect(body.data.map((c) => c.name)).toContain("Comté");
  });

  it("is documented in /openapi.json with its scope", async () => {
    const doc = await (await call("/openapi.json")).json<{
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>;
      components: { securitySchemes: Record<string, unknown> };
    }>();
    expect(operationOf(doc.paths, "/v2/cheeses", "get").security).toEqual([
      { bearerAuth: ["read:cheeses"] },
      { oauth2: ["read:cheeses"] },
      { bearerAuth: ["admin"] },
      { oauth2: ["admin"] },
    ]);
    expect(Object.keys(operationOf(doc.paths, "/v2/cheeses", "get").responses).sort()).toEqual([
      "200",
      "400",
      "401",
      "403",
      "405",
      "412",
      "429",
      "500",
      "503",
    ]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(Object.keys(pathItem(doc.paths, "/v1/keys")).sort()).toEqual(["get", "post"]);
    expect(Object.keys(pathItem(doc.paths, "/v1/keys/{id}"))).toEqual(["delete"]);
    expect(Object.keys(doc.paths).some((path) => path.startsWith("/operator"))).toBe(false);
  });
});

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
