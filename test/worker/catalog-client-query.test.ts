/**
 * The client package's query(), queryAll(), products() and funnels() inside workerd against the
 * real routes: typed pages, every match verified against the release index, and a profile changed
 * on its way refused.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CatalogVerificationError, createCatalogClient } from "../../packages/client/src/index.js";
import app from "../../src/worker/index";
import { sharedTestKey } from "./auth-fixtures";
import { API_ORIGIN } from "./support/api";
import { oracleFacets, oracleProfiles, oracleQuery } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

const generated = testRelease("generated");
const all = oracleProfiles(generated);
const contexts: ExecutionContext[] = [];
const workerFetch = async (request: Request) => {
  const ctx = createExecutionContext();
  contexts.push(ctx);
  return app.fetch(request, env, ctx);
};
const client = async (fetch = workerFetch) =>
  createCatalogClient({ baseUrl: API_ORIGIN, apiKey: await sharedTestKey(), fetch });
const ids = (profiles: { agent_readiness_profile_id: string }[]) => profiles.map((p) => p.agent_readiness_profile_id);

beforeAll(() => publish(generated), 60_000);
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => waitOnExecutionContext(ctx)));
});

describe("client queries", () => {
  it("query() returns the first page, the exact count and the facets", async () => {
    const page = await (await client()).query(
      { grade: ["A", "B+"], "stage.pay": "ready" },
      { sort: "-grade", limit: 5, facets: ["grade"] },
    );
    const expected = oracleQuery(all, { grade: "A,B+", "stage.pay": "ready", sort: "-grade" });
    expect(page.releaseId).toBe(generated.manifest.release_id);
    expect(page.count).toBe(expected.length);
    expect(ids(page.profiles)).toEqual(ids(expected.slice(0, 5).map((p) => p.profile)));
    expect(page.facets).toEqual(oracleFacets(expected, ["grade"]));
    expect(page.hasMore).toBe(expected.length > 5);
  });

  it("queryAll() yields every match, each verified against the release index", { timeout: 60_000 }, async () => {
    const seen = [];
    for await (const profile of (await client()).queryAll({ funnel: "checkout" }, { limit: 7 })) seen.push(profile);
    expect(ids(seen)).toEqual(ids(oracleQuery(all, { funnel: "checkout" }).map((p) => p.profile)));
  });

  it("queryAll() refuses a profile whose bytes are not the index's", async () => {
    const tampering = async (request: Request) => {
      const response = await workerFetch(request);
      if (!new URL(request.url).pathname.endsWith("/profiles") || response.status !== 200) return response;
      const text = (await response.text()).replace('"grade":"A"', '"grade":"B"');
      return new Response(text, { headers: response.headers });
    };
    const profiles = (await client(tampering)).queryAll({ grade: "A" });
    await expect(
      (async () => {
        for await (const _ of profiles);
      })(),
    ).rejects.toThrow(CatalogVerificationError);
  });

  it("products() and funnels() list every entry of the release", async () => {
    const c = await client();
    const products = [];
    for await (const product of c.products()) products.push(product.product_key);
    expect(products).toEqual([...new Set(all.map((p) => p.profile.scope.product.key))].sort());
    const funnels = [];
    for await (const funnel of c.funnels()) funnels.push(funnel.funnel_key);
    expect(funnels).toEqual([...new Set(all.map((p) => p.profile.scope.funnel.key))].sort());
  });
});
