/**
 * Publishing a release's index (docs/contract.md "Release index"): its segments are uploaded create-only and
 * verified before `current` moves; a build without one is refused; a release published before
 * indexes existed gains one when its build is published again; rollback checks the index too.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/common/sha256";
import { storageKeys } from "../../src/common/catalog/manifest";
import { PublishError, readCurrent, rollbackRelease } from "../../src/node/catalog/publish";
import { api } from "./support/api";
import { documentProfile } from "./support/document-profiles";
import { expectProblem } from "./support/problems";
import { partBytes, publish, releaseIndex, testRelease, workerStorage } from "./support/releases";
import { countingStorage } from "./support/storage-faults";
import { resetStorage } from "./support/reset-storage";

const a = testRelease("base");
const b = testRelease("smaller");
/** Published by one test only: this isolate has no manifest of it in memory from another. */
const legacy = testRelease("smallest");
const hexOf = (releaseId: string) => releaseId.slice("sha256:".length);
const first = documentProfile(a, 0);
const lookup = `/v1/profiles/${first.productKey}/${first.funnelKey}`;

beforeEach(() => resetStorage());

describe("publishing the index", () => {
  it("an index segment whose bytes do not match its sha256 is refused by R2, and the previous release stays current", async () => {
    await publish(a);
    const corrupted = {
      ...b,
      index: { ...b.index, id: b.index.id.map((segment, i) => (i === 0 ? segment.map((byte) => byte ^ 1) : segment)) },
    };
    await expect(publish(corrupted)).rejects.toThrow(PublishError);
    expect((await readCurrent(env.CATALOG_KV))?.release_id).toBe(a.manifest.release_id);
    expect((await api(lookup)).headers.get("catalog-release")).toBe(a.manifest.release_id);
  });

  it("refuses a build without an index (made before profile lookups) before writing anything", async () => {
    const storage = countingStorage(workerStorage());
    const { index: _, ...withoutIndex } = a.manifest;
    await expect(publish({ ...a, manifest: withoutIndex }, storage)).rejects.toThrow(
      /manifest\.index: missing; .*build the release again/,
    );
    expect(storage.writes).toEqual([]);
  });

  it("refuses the same release with another index (a release's layout is immutable)", async () => {
    await publish(a);
    const index = releaseIndex(a.manifest).map((entry) => ({ ...entry, page_bytes: entry.page_bytes + 1 }));
    await expect(publish({ ...a, manifest: { ...a.manifest, index } })).rejects.toThrow(
      /already published with another index \(page_bytes 400\)/,
    );
  });

  it("a release published without an index gains it when its build is published again, keeping published_at", async () => {
    const hex = hexOf(legacy.manifest.release_id);
    const { index: _, ...unindexed } = { ...legacy.manifest, published_at: "2026-01-02T03:04:05.000Z" };
    for (const part of unindexed.parts)
      await env.RELEASES.put(storageKeys.part(hex, part.index), partBytes(legacy, part.index), {
        sha256: hexOf(part.sha256),
      });
    await env.CATALOG_KV.put(storageKeys.releaseManifestKv(hex), JSON.stringify(unindexed));
    await env.RELEASES.put(storageKeys.releaseManifestR2(hex), JSON.stringify(unindexed), {
      sha256: await sha256Hex(JSON.stringify(unindexed)),
    });
    const profile = documentProfile(legacy, 0);
    const pinned = `/v1/releases/${legacy.manifest.release_id}/profiles/${profile.productKey}/${profile.funnelKey}`;
    const before = await expectProblem(await api(pinned), 404, "release_not_indexed");
    expect(before.detail).toContain(`Release ${legacy.manifest.release_id} was published without a profile index`);

    const result = await publish(legacy);
    expect(result).toMatchObject({ published_at: unindexed.published_at, parts_uploaded: 0 });
    const manifest = JSON.stringify({ ...legacy.manifest, published_at: unindexed.published_at });
    expect(await env.CATALOG_KV.get(storageKeys.releaseManifestKv(hex))).toBe(manifest);
    expect(await (await env.RELEASES.get(storageKeys.releaseManifestR2(hex)))?.text()).toBe(manifest);
    for (const { name, segments } of releaseIndex(legacy.manifest)) {
      for (const segment of segments)
        expect((await env.RELEASES.head(storageKeys.indexSegment(hex, name, segment.index)))?.size).toBe(
          segment.length,
        );
    }
    expect((await api(pinned)).status).toBe(200);
  });
});

describe("rollback", () => {
  it("refuses when a kept release's index segment is gone, leaving current alone", async () => {
    await publish(a);
    await publish(b);
    await env.RELEASES.delete(storageKeys.indexSegment(hexOf(a.manifest.release_id), "id", 0));
    await expect(rollbackRelease(workerStorage(), a.manifest.release_id)).rejects.toThrow(/index\/id\/0 is missing/);
    expect((await readCurrent(env.CATALOG_KV))?.release_id).toBe(b.manifest.release_id);
  });
});
