/**
 * Publishing into the real local R2/KV with src/node/catalog/publish.ts and reading back through the
 * worker: atomic flips, no-op re-publish, interrupted publishes, pinning across a flip, rollback.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { toHex } from "../../src/common/catalog/digest";
import { hexOf, storageKeys } from "../../src/common/catalog/manifest";
import { PublishError, readCurrent, rollbackRelease } from "../../src/node/catalog/publish";
import { RollbackRefused } from "../../src/node/catalog/release-pointer";
import { expectDefined } from "../../src/common/expect";
import { api, headerOf } from "./support/api";
import { publish, releaseIndex, testRelease, workerStorage, type TestRelease } from "./support/releases";
import { countingStorage } from "./support/storage-faults";
import { resetStorage } from "./support/reset-storage";

const a = testRelease("base");
const b = testRelease("smaller");
const c = testRelease("smallest");
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

async function expectServed(release: TestRelease) {
  const res = await api("/v1/catalog");
  expect(res.headers.get("etag")).toBe(`"${release.manifest.release_id}"`);
  expect(await bytesOf(res)).toEqual(release.document);
}

// Each test publishes two or three releases: on a machine busy with other work that takes over 5 s.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => resetStorage());

describe("publish", () => {
  it("makes the release current only after every object is written; publishing it again writes nothing", async () => {
    const first = await publish(a);
    expect(first).toMatchObject({ pointer_flipped: true, parts_uploaded: a.parts.length, previous_release_id: null });
    await expectServed(a);

    const storage = countingStorage(workerStorage());
    const again = await publish(a, storage);
    expect(again).toMatchObject({ pointer_flipped: false, parts_uploaded: 0, published_at: first.published_at });
    // Create-only puts are attempted (and refused by R2 as already present); nothing else is written.
    expect(storage.writes.filter((write) => write.startsWith("kv "))).toEqual([]);
    await expectServed(a);
  });

  it("writes parts, then the index segments, then the manifest (R2, then KV), flips `current`, then records it in both histories", async () => {
    const storage = countingStorage(workerStorage());
    await publish(a, storage);
    const hex = a.manifest.release_id.slice(7);
    const flip = storage.writes.indexOf(`kv ${storageKeys.current}`);
    expect(storage.writes).toEqual([
      ...a.manifest.parts.map((part) => `r2 ${storageKeys.part(hex, part.index)}`),
      ...releaseIndex(a.manifest).flatMap(({ name, segments }) =>
        segments.map((segment) => `r2 ${storageKeys.indexSegment(hex, name, segment.index)}`),
      ),
      // R2's copy first: its create-only put decides between concurrent publishes; KV copies it.
      `r2 ${storageKeys.releaseManifestR2(hex)}`,
      `kv ${storageKeys.releaseManifestKv(hex)}`,
      // The D1 query tables: the profiles' rows, then the lists and facet counts, then the release's line.
      ...storage.writes.filter((write, i) => write === "d1 batch" && i < flip),
      `kv ${storageKeys.current}`,
      `kv ${storageKeys.history}`,
      // The profile history (D1): the first release's profiles, `added`, with the event's line.
      "d1 batch",
    ]);
    expect(storage.writes.filter((write, i) => write === "d1 batch" && i < flip).length).toBeGreaterThanOrEqual(3);
  });

  // One full publish per possible interruption point: give it the time a busy machine needs.
  it("interrupted before any write, after each write, or before the flip: the previous release is still served", {
    timeout: 120_000,
  }, async () => {
    await publish(a);
    const counted = countingStorage(workerStorage());
    await publish(b, counted);
    // Every write up to and including the flip of `current` (the history entry comes after it).
    const writesOfB = counted.writes.indexOf(`kv ${storageKeys.current}`) + 1;
    expect(writesOfB).toBeGreaterThan(b.manifest.parts.length);
    for (let allowed = 0; allowed < writesOfB; allowed++) {
      await resetStorage();
      await publish(a);
      await expect(publish(b, countingStorage(workerStorage(), allowed))).rejects.toThrow(/simulated outage/);
      await expectServed(a);
      expect((await readCurrent(env.CATALOG_KV))?.release_id).toBe(a.manifest.release_id);
    }
    const finished = await publish(b); // running it again after the last interruption finishes the job
    expect(finished.previous_release_id).toBe(a.manifest.release_id);
    await expectServed(b);
  });

  it("keeps published_at from the first publish", async () => {
    const first = await publish(a);
    await publish(b);
    const back = await publish(a);
    expect(back.published_at).toBe(first.published_at);
    expect(back.pointer_flipped).toBe(true);
  });

  it("refuses the same release cut with another part size (a release's layout is immutable)", async () => {
    await publish(a);
    await expect(publish(testRelease("relaid"))).rejects.toThrow(
      /already published with part_bytes 7919; .*rebuild with --part-bytes 7919/,
    );
    await expectServed(a);
  });

  it("refuses a part whose bytes do not match the manifest's sha256 (R2 checks it), leaving current alone", async () => {
    await publish(a);
    const corrupted = { ...b, parts: b.parts.map((part, i) => (i === 1 ? part.map((byte) => byte ^ 1) : part)) };
    await expect(publish(corrupted)).rejects.toThrow(PublishError);
    await expectServed(a);
  });

  it("refuses a different object already stored under a part's key", async () => {
    await publish(a);
    const hex = b.manifest.release_id.slice(7);
    await env.RELEASES.put(storageKeys.part(hex, 0), "not the part");
    await expect(publish(b)).rejects.toThrow(/releases\/.*\/parts\/0 holds 12 bytes/);
    await expectServed(a);
  });

  it("refuses a manifest whose digests or layout do not hold together, before writing anything", async () => {
    const storage = countingStorage(workerStorage());
    const parts = a.manifest.parts.map((part, i) => (i === 2 ? { ...part, offset: part.offset + 1 } : part));
    const broken = { ...a, manifest: { ...a.manifest, release_id: c.manifest.release_id, parts } };
    const error = await publish(broken, storage).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PublishError);
    expect(String(error)).toContain("manifest.release_id: expected");
    expect(String(error)).toContain("manifest.parts[2].offset: expected");
    expect(storage.writes).toEqual([]);
  });
});

describe("pinning: a client paging through a release is never switched to another", () => {
  it("part 0 of A, then B is published, then parts 1… of A: all served, and together exactly A", async () => {
    await publish(a);
    const manifest = (await (await api("/v1/releases/current")).json()) as { release_id: string };
    expect(manifest.release_id).toBe(a.manifest.release_id);
    const first = await api(`/v1/releases/${manifest.release_id}/parts/0`);
    const chunks = [await bytesOf(first)];
    let next = expectDefined(/^<([^>]+)>/.exec(headerOf(first, "link"))?.[1], "the next part's URL in Link");

    await publish(b);
    await expectServed(b);

    while (next) {
      const res = await api(next);
      expect(res.headers.get("catalog-release")).toBe(a.manifest.release_id);
      chunks.push(await bytesOf(res));
      next = /^<([^>]+)>/.exec(res.headers.get("link") ?? "")?.[1] ?? "";
    }
    expect(new Uint8Array(await new Blob(chunks).arrayBuffer())).toEqual(a.document);
  });

  it("a whole-document download in progress finishes with the release it started with", async () => {
    await publish(a);
    const res = await api("/v1/catalog");
    const reader = expectDefined(res.body, "the document's body").getReader();
    const received: Uint8Array[] = [expectDefined((await reader.read()).value, "the document's first chunk")];
    await publish(b);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) received.push(chunk.value);
    expect(new Uint8Array(await new Blob(received).arrayBuffer())).toEqual(a.document);
  });

  it("a download resumed with a plain Range (curl -C -, wget -c) at Content-Location is one release", async () => {
    await publish(a);
    const first = await api("/v1/catalog");
    const pinned = headerOf(first, "content-location");
    expect(pinned).toBe(`/v1/releases/${a.manifest.release_id}/catalog`);
    const cut = Math.floor(a.document.length / 2);
    const head = (await bytesOf(first)).slice(0, cut); // the connection broke here

    await publish(b);
    // What the issue found: the same plain Range on /v1/catalog is cut from the new release.
    const mixed = await api("/v1/catalog", { headers: { Range: `bytes=${cut}-` } });
    expect(mixed.headers.get("catalog-release")).toBe(b.manifest.release_id);

    const rest = await api(pinned, { headers: { Range: `bytes=${cut}-` } });
    expect(rest.status).toBe(206);
    expect(rest.headers.get("catalog-release")).toBe(a.manifest.release_id);
    expect(rest.headers.get("cache-control")).toContain("immutable");
    expect(rest.headers.get("content-location")).toBeNull();
    const whole = new Uint8Array(await new Blob([head, await bytesOf(rest)]).arrayBuffer());
    expect(whole).toEqual(a.document);
    expect(toHex(await crypto.subtle.digest("SHA-256", whole))).toBe(hexOf(a.manifest.sha256));
  });
});

describe("rollback", () => {
  it("points current back at a kept earlier release", async () => {
    await publish(a);
    await publish(b);
    await publish(c);
    expect(await readCurrent(env.CATALOG_KV)).toEqual({
      release_id: c.manifest.release_id,
      previous: [b.manifest.release_id, a.manifest.release_id],
    });

    const result = await rollbackRelease(workerStorage(), a.manifest.release_id);
    expect(result).toEqual({
      release_id: a.manifest.release_id,
      previous_release_id: c.manifest.release_id,
      pointer_flipped: true,
      // smallest (c) lacks two of the sample profiles: going back to a adds them again.
      changes: { added: 2, changed: 0, removed: 0 },
    });
    await expectServed(a);
    expect(await readCurrent(env.CATALOG_KV)).toEqual({
      release_id: a.manifest.release_id,
      previous: [c.manifest.release_id, b.manifest.release_id],
    });
  });

  it("refuses a release that is not kept here, naming the ones that are", async () => {
    await publish(a);
    await publish(b);
    await expect(rollbackRelease(workerStorage(), c.manifest.release_id)).rejects.toThrow(RollbackRefused);
    await expect(rollbackRelease(workerStorage(), c.manifest.release_id)).rejects.toThrow(
      `kept: ${a.manifest.release_id}`,
    );
    await expectServed(b);
  });

  it("refuses when a kept release's parts are gone, leaving current alone", async () => {
    await publish(a);
    await publish(b);
    await env.RELEASES.delete(storageKeys.part(a.manifest.release_id.slice(7), 2));
    await expect(rollbackRelease(workerStorage(), a.manifest.release_id)).rejects.toThrow(/parts\/2 is missing/);
    await expectServed(b);
  });
});
