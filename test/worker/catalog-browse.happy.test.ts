/**
 * GET /v1/products and GET /v1/funnels (and pinned): every product and funnel of a release in key
 * order, paged, against the document parsed independently.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Profile } from "../../src/common/catalog/schema";
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

/** The profiles grouped by `keyOf`, in key order: each key with its first profile and how many have it. */
function groupedBy(keyOf: (p: Profile) => string): { key: string; first: Profile; count: number }[] {
  const groups = new Map<string, { key: string; first: Profile; count: number }>();
  for (const p of profiles) {
    const key = keyOf(p);
    const group = groups.get(key) ?? { key, first: p, count: 0 };
    group.count++;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
}

function expectedProducts(prefix = "") {
  return groupedBy((p) => p.scope.product.key)
    .map(({ key, first, count }) => ({
      product_key: key,
      name: first.scope.product.name,
      funnel_count: count,
      href: `/v1/releases/${releaseId}/products/${key}/profiles`,
    }))
    .filter((p) => p.product_key.startsWith(prefix) || p.name.toLowerCase().startsWith(prefix));
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
    const expected = groupedBy((p) => p.scope.funnel.key).map(({ key, first, count }) => ({
      funnel_key: key,
      name: first.scope.funnel.name,
      profile_count: count,
      href: `/v1/releases/${releaseId}/profiles?funnel=${key}`,
    }));
    expect(await everyEntry("/v1/funnels?limit=3")).toEqual(expected);
    const res = await api("/v1/funnels");
    expect(res.headers.get("content-location")).toBe(`/v1/releases/${releaseId}/funnels`);
  });
});
