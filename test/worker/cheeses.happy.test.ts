/** GET /v2/cheeses: the authentication spec's example request, working as written. */
import { describe, expect, it } from "vitest";
import collection from "../../data/cheeses.json";
import { accountWithKey, call } from "./auth-fixtures";

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
    expect(doc.paths["/v2/cheeses"]!.get!.security).toEqual([
      { bearerAuth: ["read:cheeses"] },
      { oauth2: ["read:cheeses"] },
      { bearerAuth: ["admin"] },
      { oauth2: ["admin"] },
    ]);
    expect(Object.keys(doc.paths["/v2/cheeses"]!.get!.responses).sort()).toEqual([
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
    expect(Object.keys(doc.paths["/v1/keys"]!).sort()).toEqual(["get", "head", "post"]);
    expect(Object.keys(doc.paths["/v1/keys/{id}"]!)).toEqual(["delete"]);
    expect(Object.keys(doc.paths).some((path) => path.startsWith("/operator"))).toBe(false);
  });
});
