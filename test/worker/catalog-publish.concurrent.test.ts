/**
 * Publishes of one build at the same moment (two operators, a retried CI job): R2's create-only put
 * of the manifest decides which one's `published_at` stands, KV follows R2, and a later publish
 * repairs a KV copy that differs from R2's (left by a publish before this rule).
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { hexOf, storageKeys } from "../../src/common/catalog/manifest";
import { sha256Hex } from "../../src/common/sha256";
import { api } from "./support/api";
import { publish, testRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const a = testRelease("base");
const hex = hexOf(a.manifest.release_id);
// Small D1 batches, so the two loads of the query rows overlap too.
const at = (iso: string) => ({ now: () => new Date(iso), loadBatchProfiles: 4 });

async function storedManifests() {
  const kv = await env.CATALOG_KV.get(storageKeys.releaseManifestKv(hex));
  const r2 = await (await env.RELEASES.get(storageKeys.releaseManifestR2(hex)))?.text();
  return { kv, r2 };
}

async function servedPublishedAt(): Promise<string> {
  const res = await api("/v1/releases/current");
  expect(res.status).toBe(200);
  return ((await res.json()) as { published_at: string }).published_at;
}

beforeEach(() => resetStorage());

describe("concurrent publishes of one build", () => {
  it("both succeed with the first writer's published_at, and so does a third after them", {
    timeout: 60_000,
  }, async () => {
    const [first, second] = await Promise.all([
      publish(a, undefined, at("2026-03-01T10:00:00.000Z")),
      publish(a, undefined, at("2026-03-01T10:00:00.001Z")),
    ]);
    expect(first.published_at).toBe(second.published_at);
    const third = await publish(a, undefined, at("2026-03-01T11:00:00.000Z"));
    expect(third).toMatchObject({ published_at: first.published_at, pointer_flipped: false, parts_uploaded: 0 });

    const { kv, r2 } = await storedManifests();
    expect(kv).toBe(r2);
    expect(JSON.parse(kv ?? "null")).toMatchObject({ published_at: first.published_at });
    expect(await servedPublishedAt()).toBe(first.published_at);
    // The two loads of the query rows wrote each profile's rows once.
    const count = (table: string) =>
      env.CATALOG_DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
    for (const table of ["query_profiles", "query_words", "query_bodies", "query_releases"])
      expect((await count(table))?.n, table).toBe(table === "query_releases" ? 1 : a.manifest.profile_count);
  });

  it("a publish finding KV's manifest differing from R2's makes KV hold R2's", { timeout: 60_000 }, async () => {
    const published = await publish(a, undefined, at("2026-03-01T10:00:00.000Z"));
    // The state publishes before this fix could leave: each stamped its own published_at.
    const other = JSON.stringify({ ...a.manifest, published_at: "2026-03-01T10:00:00.001Z" });
    await env.CATALOG_KV.put(storageKeys.releaseManifestKv(hex), other);

    const again = await publish(a, undefined, at("2026-03-01T12:00:00.000Z"));
    expect(again.published_at).toBe(published.published_at);
    const { kv, r2 } = await storedManifests();
    expect(kv).toBe(r2);
    expect(await sha256Hex(kv ?? "")).not.toBe(await sha256Hex(other));
  });
});
