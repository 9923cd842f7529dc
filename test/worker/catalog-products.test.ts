/**
 * GET /v1/products/{product_key}/profiles and its pinned form: a product's funnels from the scope
 * index, each with what verifies its profile (byte range in the document, SHA-256) and the URL that
 * serves it; bounded pages of the one list shape followed through `next`, across leaves and segments
 * of the index, whose cursor only this deployment can make.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { api, headerOf } from "./support/api";
import { documentProfiles } from "./support/document-profiles";
import { expectProblem } from "./support/problems";
import { WIDE_PRODUCT } from "./support/provided-releases";
import { publish, releaseIndex, testRelease, type TestRelease } from "./support/releases";

const base = testRelease("base");
const wide = testRelease("wide");
const wideSmallPages = testRelease("wideSmallPages");
const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

interface Page {
  object: "list";
  release_id: string;
  product_key: string;
  has_more: boolean;
  data: {
    funnel_key: string;
    agent_readiness_profile_id: string;
    href: string;
    offset: number;
    length: number;
    sha256: string;
  }[];
  next: string | null;
}

/** What a listing of `product` in `release` must hold, from the document alone. */
async function expectedListing(release: TestRelease, product: string) {
  const profiles = documentProfiles(release).filter((p) => p.productKey === product);
  return Promise.all(
    profiles.map(async (p) => ({
      funnel_key: p.funnelKey,
      agent_readiness_profile_id: p.id,
      href: `/v1/releases/${release.manifest.release_id}/profiles/${product}/${p.funnelKey}`,
      offset: p.offset,
      length: p.bytes.length,
      sha256: `sha256:${hex(await crypto.subtle.digest("SHA-256", p.bytes))}`,
    })),
  );
}

/** Every page from `path` on, following `next`. */
async function allPages(path: string): Promise<Page[]> {
  const pages: Page[] = [];
  for (let next: string | null = path; next; ) {
    const res = await api(next);
    expect(res.status).toBe(200);
    const page = (await res.json()) as Page;
    expect(res.headers.get("link")).toBe(page.next ? `<${page.next}>; rel="next"` : null);
    expect([page.object, page.has_more]).toEqual(["list", page.next !== null]);
    pages.push(page);
    next = page.next;
  }
  return pages;
}

// Three publishes: past vitest's default 10 s hook timeout on a loaded 2-core machine (it timed
// out in a whole worker run at load average 10).
beforeAll(async () => {
  await publish(wideSmallPages);
  await publish(wide);
  await publish(base);
}, 60_000);

describe("a product's profiles", () => {
  it("lists every product of the current release, each entry matching its profile in the document", async () => {
    const products = [...new Set(documentProfiles(base).map((p) => p.productKey))];
    expect(products.length).toBeGreaterThan(20);
    for (const product of products) {
      const pages = await allPages(`/v1/products/${product}/profiles`);
      expect(pages.flatMap((page) => page.data)).toEqual(await expectedListing(base, product));
      expect(pages.every((page) => page.release_id === base.manifest.release_id && page.product_key === product)).toBe(
        true,
      );
    }
  });

  it("headers: the release, a strong ETag (304), a Content-Digest of the body, the pinned URL", async () => {
    const path = "/v1/products/northwind-payments-api/profiles";
    const res = await api(path);
    const body = await res.arrayBuffer();
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("catalog-release")).toBe(base.manifest.release_id);
    expect(res.headers.get("content-location")).toBe(
      `/v1/releases/${base.manifest.release_id}/products/northwind-payments-api/profiles`,
    );
    expect(res.headers.get("cache-control")).toBe("private, no-cache, no-transform");
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
    expect(res.headers.get("content-digest")).toBe(`sha-256=:${btoa(String.fromCharCode(...digest))}:`);
    const again = await api(path, { headers: { "If-None-Match": headerOf(res, "etag") } });
    expect(again.status).toBe(304);
    const head = await api(path, { method: "HEAD" });
    expect([head.status, head.headers.get("etag"), await head.text()]).toEqual([200, res.headers.get("etag"), ""]);
    expect((await api(headerOf(res, "content-location"))).headers.get("cache-control")).toBe(
      "private, max-age=31536000, immutable, no-transform",
    );
  });

  it("an href serves the profile whose digest the listing gives", async () => {
    const [first] = (await (await api("/v1/products/willow-translate-api/profiles")).json<Page>()).data;
    const entry = expectDefined(first, "a profile listed for willow-translate-api");
    const res = await api(entry.href);
    expect(new Uint8Array(await res.arrayBuffer()).length).toBe(entry.length);
    expect(res.headers.get("etag")).toBe(`"${entry.sha256}"`);
    expect(res.headers.get("catalog-document-range")).toBe(
      `bytes ${entry.offset}-${entry.offset + entry.length - 1}/${base.manifest.bytes}`,
    );
  });

  it(`pages hold at most 100 profiles; following next lists all 250 funnels of a product once, in order`, async () => {
    const pages = await allPages(`/v1/releases/${wide.manifest.release_id}/products/${WIDE_PRODUCT.key}/profiles`);
    expect(pages.map((page) => page.data.length)).toEqual([100, 100, 50]);
    expect(pages[0]?.next).toMatch(
      new RegExp(
        `^/v1/releases/${wide.manifest.release_id}/products/${WIDE_PRODUCT.key}/profiles\\?limit=100&cursor=[\\w-]+\\.[\\w-]+$`,
      ),
    );
    expect(pages.flatMap((page) => page.data)).toEqual(await expectedListing(wide, WIDE_PRODUCT.key));
  });

  it("small index pages: a page stops after three leaves, and next goes on across leaves and segments", async () => {
    const { segments } = expectDefined(releaseIndex(wideSmallPages.manifest)[0], "the first index of the release");
    expect(segments.length).toBeGreaterThan(5);
    const pages = await allPages(
      `/v1/releases/${wideSmallPages.manifest.release_id}/products/${WIDE_PRODUCT.key}/profiles`,
    );
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.every((page) => page.data.length > 0 && page.data.length <= 6)).toBe(true);
    expect(pages.flatMap((page) => page.data)).toEqual(await expectedListing(wideSmallPages, WIDE_PRODUCT.key));
  });

  it("limit sets the page size, and next keeps it", async () => {
    const pages = await allPages(`/v1/products/northwind-payments-api/profiles?limit=2`);
    const whole = await expectedListing(base, "northwind-payments-api");
    expect(pages.map((page) => page.data.length)).toEqual(
      Array.from({ length: Math.ceil(whole.length / 2) }, (_, i) => Math.min(2, whole.length - 2 * i)),
    );
    expect(pages.flatMap((page) => page.data)).toEqual(whole);
  });
});

describe("errors", () => {
  it("404 profile_not_found for a product with no profile, naming the release", async () => {
    for (const product of ["no-such-product", "0-before-all", "zzz-after-all", "northwind"]) {
      const problem = await expectProblem(await api(`/v1/products/${product}/profiles`), 404, "profile_not_found");
      expect(problem.detail).toBe(
        `Release ${base.manifest.release_id} has no profile for product "${product}": it has no product "${product}". GET /v1/releases/${base.manifest.release_id}/products lists its products.`,
      );
    }
  });

  it("/v1/products/Northwind/profiles → 400 invalid_scope_key", async () => {
    const problem = await expectProblem(await api("/v1/products/Northwind/profiles"), 400, "invalid_scope_key");
    expect(problem.detail).toContain('product_key "Northwind"');
  });

  it("a cursor made by hand, changed, or taken from another product or release → 400 invalid_cursor", async () => {
    const widePath = `/v1/releases/${wide.manifest.release_id}/products/${WIDE_PRODUCT.key}/profiles`;
    const next = expectDefined((await (await api(widePath)).json<Page>()).next, "a second page");
    const cursor = expectDefined(new URL(next, "http://x").searchParams.get("cursor"), "its cursor");
    const [payload, tag] = cursor.split(".");
    const forged = `${btoa(JSON.stringify({ release: wide.manifest.release_id, at: "funnel-200" })).replace(/=+$/, "")}.${tag}`;
    for (const path of [
      `${widePath}?cursor=funnel-099`,
      `${widePath}?cursor=${forged}`,
      `${widePath}?cursor=${payload}.${tag?.slice(1)}A`,
      `/v1/releases/${wide.manifest.release_id}/products/northwind-payments-api/profiles?cursor=${cursor}`,
      `/v1/releases/${base.manifest.release_id}/products/${WIDE_PRODUCT.key}/profiles?cursor=${cursor}`,
    ]) {
      const problem = (await expectProblem(await api(path), 400, "invalid_cursor")) as { errors?: unknown };
      expect(problem.errors, path).toEqual([expect.objectContaining({ parameter: "cursor", code: "invalid_cursor" })]);
    }
  });

  it("after, the funnel key of the old listing, is an unknown parameter now", async () => {
    const res = await api("/v1/products/northwind-payments-api/profiles?after=checkout");
    const problem = await expectProblem(res, 400, "unknown_parameter");
    expect(problem.detail).toContain("this route accepts limit, cursor");
  });

  it("/openapi.json describes both listings", async () => {
    const doc = (await (await api("/openapi.json")).json()) as {
      paths: Record<string, { get?: { responses: object } }>;
    };
    for (const path of [
      "/v1/products/{product_key}/profiles",
      "/v1/releases/{release_id}/products/{product_key}/profiles",
    ]) {
      expect(Object.keys(doc.paths[path]?.get?.responses ?? {}), path).toEqual(
        expect.arrayContaining(["200", "304", "400", "401", "403", "404", "429"]),
      );
    }
  });
});
