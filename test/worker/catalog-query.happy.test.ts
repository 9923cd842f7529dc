/**
 * GET /v1/profiles and its pinned form against an independent oracle (support/query-oracle.ts):
 * for many filter combinations and every sort, every page's profiles, the count and the facets are
 * what the contract says, and each profile is its exact bytes in the document.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { api } from "./support/api";
import { oracleFacets, oracleProfiles, oracleQuery, type OracleProfile } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

const generated = testRelease("generated");
const all = oracleProfiles(generated);
const releaseId = generated.manifest.release_id;
const byId = new Map(all.map((p) => [p.profile.agent_readiness_profile_id, p]));
/** Whole-catalog walks make many requests; this shared machine is slow. */
const WALK_TIMEOUT = 60_000;

interface ListBody {
  object: string;
  release_id: string;
  count: number;
  data: { agent_readiness_profile_id: string }[];
  has_more: boolean;
  next: string | null;
  facets?: Record<string, Record<string, number>>;
}

/** Every page of a query, following `next`; checks each page's shape and bytes on the way. */
async function everyPage(path: string): Promise<{ pages: ListBody[]; ids: string[] }> {
  const pages: ListBody[] = [];
  for (let next: string | null = path; next; ) {
    const res = await api(next);
    expect(res.status, next).toBe(200);
    const text = await res.text();
    const body = JSON.parse(text) as ListBody;
    for (const item of body.data) {
      // The profile's bytes stand in the body exactly as in the document.
      const inDocument = expectDefined(byId.get(item.agent_readiness_profile_id), "the listed profile in the document");
      expect(text).toContain(inDocument.text);
      expect(JSON.stringify(item)).toBe(inDocument.text);
    }
    pages.push(body);
    next = body.next;
    if (next) expect(next.startsWith(`/v1/releases/${releaseId}/profiles?`)).toBe(true);
  }
  return { pages, ids: pages.flatMap((page) => page.data.map((p) => p.agent_readiness_profile_id)) };
}

const idsOf = (profiles: OracleProfile[]) => profiles.map((p) => p.profile.agent_readiness_profile_id);
const someProduct = expectDefined(all[17], "profile 17").profile.scope.product.key;
const someEntity = expectDefined(all[42], "profile 42").profile.entity_id;

const CASES: Record<string, string>[] = [
  {},
  { grade: "A" },
  { grade: "A,B+", sort: "-last_tested_at" },
  { funnel: "checkout", "stage.pay": "limited" },
  { "stage.provision": "limited", "stage.sign_up": "ready", sort: "grade" },
  { signal: "self_service_purchase" },
  { signal: "self_service_purchase,failure_contract", sort: "-grade" },
  { primary_stage: "pay,operate", coverage_status: "complete" },
  { overall_outcome: "pass", public_state: "ready" },
  { product: someProduct },
  { entity: someEntity },
  { q: "payments" },
  { q: "northwind pay" },
  { tested_after: "2026-11-05T00:00:00Z", tested_before: "2026-11-12T12:00:00.5Z", sort: "last_tested_at" },
  { grade: "F", funnel: "webhooks,sandbox", sort: "-grade" },
  { freshness: "fresh", lifecycle: "active", visibility: "discoverable", grade: "C" },
];

describe("GET /v1/profiles: matches, order and count as the oracle has them", () => {
  // Loading 400 profiles into D1 takes seconds on a busy machine.
  beforeAll(async () => {
    await publish(generated);
  }, 60_000);

  for (const params of CASES) {
    it(
      `${JSON.stringify(params)}, pages of 7`,
      async () => {
        const expected = oracleQuery(all, params);
        const search = new URLSearchParams({ ...params, limit: "7" });
        const { pages, ids } = await everyPage(`/v1/profiles?${search}`);
        expect(ids).toEqual(idsOf(expected));
        for (const page of pages) {
          expect(page.count).toBe(expected.length);
          expect(page.release_id).toBe(releaseId);
          expect(page.object).toBe("list");
        }
        expect(pages.at(-1)?.has_more).toBe(false);
      },
      WALK_TIMEOUT,
    );
  }

  it(
    "every sort over the whole catalog, pages of 100",
    async () => {
      for (const sort of ["catalog", "grade", "-grade", "last_tested_at", "-last_tested_at"]) {
        const { ids } = await everyPage(`/v1/profiles?sort=${sort}&limit=100`);
        expect(ids).toEqual(idsOf(oracleQuery(all, { sort })));
      }
    },
    WALK_TIMEOUT,
  );

  it(
    "facets count every match, from the kept counts and by scanning alike",
    async () => {
      const facets = ["grade", "stage.pay", "signal", "funnel", "product", "primary_stage", "coverage_status"];
      for (const params of [
        {},
        { grade: "A" },
        { grade: "A,B" },
        { signal: "failure_contract" },
        { funnel: "checkout", "stage.pay": "limited" },
        { q: "api" },
        { signal: "self_service_purchase,failure_contract" },
      ] as Record<string, string>[]) {
        const search = new URLSearchParams({ ...params, facets: facets.join(","), limit: "3" });
        const res = await api(`/v1/profiles?${search}`);
        const body = (await res.json()) as ListBody;
        expect(body.facets, JSON.stringify(params)).toEqual(oracleFacets(oracleQuery(all, params), facets));
        expect(Object.keys(body.facets ?? {})).toEqual(facets);
      }
    },
    WALK_TIMEOUT,
  );

  it("compares dates finer than a millisecond exactly, and never rounds past year 9999", async () => {
    const tested = expectDefined(all[5], "profile 5").profile.last_tested_at;
    const atOrAfter = all.filter((p) => p.profile.last_tested_at >= tested).length;
    const countOf = async (query: string) => ((await (await api(`/v1/profiles?${query}`)).json()) as ListBody).count;
    // A tenth of a microsecond after a profile's millisecond: that profile is before it, not at or after it.
    const justAfter = tested.replace("Z", "0001Z");
    const exactlyAt = all.filter((p) => p.profile.last_tested_at === tested).length;
    expect(await countOf(`tested_after=${tested}`)).toBe(atOrAfter);
    expect(await countOf(`tested_after=${justAfter}`)).toBe(atOrAfter - exactlyAt);
    expect(await countOf(`tested_before=${justAfter}`)).toBe(all.length - atOrAfter + exactlyAt);
    expect(await countOf("tested_after=9999-12-31T23:59:59.9999Z")).toBe(0);
    expect(await countOf("tested_before=9999-12-31T23:59:59.9999Z")).toBe(all.length);
  });

  it("the current route names its pinned page; the pinned one is immutable", async () => {
    const current = await api("/v1/profiles?grade=A&limit=2");
    expect(current.headers.get("content-location")).toBe(`/v1/releases/${releaseId}/profiles?grade=A&limit=2`);
    expect(current.headers.get("cache-control")).toContain("no-cache");
    expect(current.headers.get("catalog-release")).toBe(releaseId);
    const body = (await current.json()) as ListBody;
    expect(current.headers.get("link")).toBe(`<${body.next}>; rel="next"`);
    const pinned = await api(`/v1/releases/${releaseId}/profiles?grade=A&limit=2`);
    expect(pinned.headers.get("cache-control")).toContain("immutable");
    expect(pinned.headers.get("content-location")).toBeNull();
    const bytes = new Uint8Array(await pinned.arrayBuffer());
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)).toBase64();
    expect(pinned.headers.get("content-digest")).toBe(`sha-256=:${digest}:`);
  });

  it("a page's ETag is its digest, and If-None-Match naming it is a 304 on every list route", async () => {
    for (const path of [
      "/v1/profiles?grade=A&limit=2",
      `/v1/releases/${releaseId}/profiles?grade=A&limit=2`,
      "/v1/products?limit=2",
      "/v1/funnels?limit=2",
    ]) {
      const page = await api(path);
      const bytes = new Uint8Array(await page.arrayBuffer());
      const hex = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)).toHex();
      expect(page.headers.get("etag"), path).toBe(`"${hex}"`);
      const again = await api(path, { headers: { "If-None-Match": `"other", W/"${hex}"` } });
      expect(again.status, path).toBe(304);
      expect(await again.text(), path).toBe("");
      expect(again.headers.get("etag"), path).toBe(`"${hex}"`);
      expect(again.headers.get("catalog-release"), path).toBe(releaseId);
      const stale = await api(path, { headers: { "If-None-Match": '"other"' } });
      expect(stale.status, path).toBe(200);
      await stale.body?.cancel();
    }
  });
});
