/**
 * The client package (packages/client) against the real worker, inside workerd. Its query(),
 * queryAll(), products() and funnels() against the real routes: typed pages, every match verified
 * against the release index, and a profile changed on its way refused. And its HTTP layer: it waits
 * out a 503's Retry-After (on a fake clock) and gets the catalog once it is published; it never
 * retries the worker's 4xx answers (on an emptied deployment, after the queries).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CatalogVerificationError, createCatalogClient } from "../../packages/client/src/index.js";
import app from "../../src/worker/index";
import { sharedTestKey } from "./auth-fixtures";
import { API_ORIGIN, apiFetch } from "./support/api";
import { oracleFacets, oracleProfiles, oracleQuery } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";
import { CatalogApiError } from "../../packages/client/src/errors.js";
import { createCatalogHttp } from "../../packages/client/src/http-client.js";
import { CATALOG_RETRY_AFTER_SECONDS } from "../../src/worker/catalog/release-lookup";
import { resetStorage } from "./support/reset-storage";

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

const release = testRelease("base");

function clientWith(onSleep: () => Promise<void> = async () => {}) {
  const sleeps: number[] = [];
  const requests: string[] = [];
  const http = createCatalogHttp({
    fetch: (request) => {
      requests.push(new URL(request.url).pathname);
      return apiFetch(request);
    },
    clock: {
      now: () => 0,
      sleep: async (ms) => {
        sleeps.push(ms);
        await onSleep();
      },
    },
    random: () => 0.5,
  });
  return { http, sleeps, requests };
}

describe("catalog client against the worker", () => {
  beforeEach(() => resetStorage());

  it("waits the 503's Retry-After while nothing is published, then gets the release published meanwhile", async () => {
    const { http, sleeps, requests } = clientWith(async () => {
      await publish(release);
    });
    const res = await http.get(`${API_ORIGIN}/v1/releases/current`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { release_id: string }).release_id).toBe(release.manifest.release_id);
    expect(sleeps).toEqual([CATALOG_RETRY_AFTER_SECONDS * 1000]);
    expect(requests).toEqual(["/v1/releases/current", "/v1/releases/current"]);
  });

  it.each([
    [`/v1/releases/sha256:${"e".repeat(64)}`, 404, "release_not_found"],
    ["/v1/releases/latest/parts/0", 400, "invalid_release_id"],
    ["/v1/catalog/parts/999", 404, "part_not_found"],
  ])("%s → %i %s, asked once", async (path, status, code) => {
    await publish(release);
    const { http, sleeps, requests } = clientWith();
    const error = (await http.get(`${API_ORIGIN}${path}`).catch((caught: unknown) => caught)) as CatalogApiError;
    expect(error).toBeInstanceOf(CatalogApiError);
    expect([error.status, error.code]).toEqual([status, code]);
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});
