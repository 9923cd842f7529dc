/**
 * GET /v1/products and GET /v1/funnels (and pinned): every product and funnel of a release in key
 * order, paged, against the document parsed independently.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api";
import { oracleProfiles } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

const generated = testRelease("generated");
const releaseId = generated.manifest.release_id;
const profiles = oracleProfiles(generated).map((p) => p.profile);

interface ListBody<T> {
  object: string;
  release_id: string;
  data: T[];
  has_more: boolean;
  next: string | null;
}

async function everyEntry<T>(path: string): Promise<T[]> {
  const entries: T[] = [];
  for (let next: string | null = path; next; ) {
    const res = await api(next);
    expect(res.status).toBe(200);
    const body = (await res.json()) as ListBody<T>;
    expect(body.release_id).toBe(releaseId);
    entries.push(...body.data);
    next = body.next;
  }
  return entries;
}

function expectedProducts(prefix = "") {
  const products = new Map<string, { product_key: string; name: string; funnel_count: number; href: string }>();
  for (const p of profiles) {
    const key = p.scope.product.key;
    const entry = products.get(key) ?? {
      product_key: key,
      name: p.scope.product.name,
      funnel_count: 0,
      href: `/v1/releases/${releaseId}/products/${key}/profiles`,
    };
    entry.funnel_count++;
    products.set(key, entry);
  }
  return [...products.values()]
    .filter((p) => p.product_key.startsWith(prefix) || p.name.toLowerCase().startsWith(prefix))
    .sort((a, b) => (a.product_key < b.product_key ? -1 : 1));
}

describe("browse", () => {
  // Loading 400 profiles into D1 takes seconds on a busy machine.
  beforeAll(async () => {
    await publish(generated);
  }, 60_000);

  it("GET /v1/products lists every product in key order, with its funnel count", { timeout: 60_000 }, async () => {
    expect(await everyEntry("/v1/products?limit=13")).toEqual(expectedProducts());
  });

  it("q= keeps the products whose key or name starts with it, case-insensitively", async () => {
    for (const q of ["zürich", "Café", "northwind-pay", "zzz"]) {
      const path = `/v1/releases/${releaseId}/products?q=${encodeURIComponent(q)}&limit=5`;
      expect(await everyEntry(path), q).toEqual(expectedProducts(q.toLowerCase()));
    }
  });

  it("GET /v1/funnels lists every funnel with its name and number of profiles", async () => {
    const counts = new Map<string, { funnel_key: string; name: string; profile_count: number; href: string }>();
    for (const p of profiles) {
      const key = p.scope.funnel.key;
      const entry = counts.get(key) ?? {
        funnel_key: key,
        name: p.scope.funnel.name,
        profile_count: 0,
        href: `/v1/releases/${releaseId}/profiles?funnel=${key}`,
      };
      entry.profile_count++;
      counts.set(key, entry);
    }
    const expected = [...counts.values()].sort((a, b) => (a.funnel_key < b.funnel_key ? -1 : 1));
    expect(await everyEntry("/v1/funnels?limit=3")).toEqual(expected);
    const res = await api("/v1/funnels");
    expect(res.headers.get("content-location")).toBe(`/v1/releases/${releaseId}/funnels`);
  });
});
