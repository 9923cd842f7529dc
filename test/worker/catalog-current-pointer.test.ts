/**
 * `current` in isolate memory (src/common/catalog/store.ts): read from KV at most once a second per
 * isolate, so a busy isolate pays one KV read a second for it; a flip made elsewhere (the CLI,
 * another isolate) is served within that second, a flip made by this isolate at once.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storageKeys } from "../../src/common/catalog/manifest";
import { CURRENT_POINTER_TTL_MS, readCurrentPointer } from "../../src/common/catalog/store";
import { api } from "./support/api";
import { recordingBinding } from "./support/recording-binding";
import { publish, testRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const a = testRelease("base");
const b = testRelease("smaller");

/** The worker's CATALOG_KV, counting the reads of `current`. */
function countingKv() {
  const reads: string[] = [];
  const kv = recordingBinding(env.CATALOG_KV, (method, args) => {
    if (method === "get" && args[0] === storageKeys.current) reads.push(String(args[0]));
  });
  return { kv, reads };
}

/** What another process does when it flips `current` (the publish CLI, another isolate's rollback). */
const flipElsewhere = (releaseId: string, previous: string[]) =>
  env.CATALOG_KV.put(storageKeys.current, JSON.stringify({ release_id: releaseId, previous }));

beforeEach(() => resetStorage());
// The tests read at instants ahead of the clock; leave no pointer kept for later: with `current`
// gone, a read forgets it.
afterEach(async () => {
  await resetStorage();
  expect(await readCurrentPointer(env.CATALOG_KV, Number.MAX_SAFE_INTEGER)).toBeNull();
});

describe("the current pointer in isolate memory", () => {
  it("is read from KV at most once per second, and again once the second has passed", async () => {
    await flipElsewhere(a.manifest.release_id, []);
    const { kv, reads } = countingKv();
    const t0 = Date.now() + 60_000; // past anything an earlier read in this isolate kept

    expect(await readCurrentPointer(kv, t0)).toMatchObject({ release_id: a.manifest.release_id });
    for (const later of [1, 500, CURRENT_POINTER_TTL_MS - 1]) {
      expect(await readCurrentPointer(kv, t0 + later)).toMatchObject({ release_id: a.manifest.release_id });
    }
    expect(reads).toHaveLength(1);

    await readCurrentPointer(kv, t0 + CURRENT_POINTER_TTL_MS);
    expect(reads).toHaveLength(2);
  });

  it("serves a flip made elsewhere within the second", async () => {
    const t0 = Date.now() + 120_000;
    await flipElsewhere(a.manifest.release_id, []);
    expect(await readCurrentPointer(env.CATALOG_KV, t0)).toMatchObject({ release_id: a.manifest.release_id });

    await flipElsewhere(b.manifest.release_id, [a.manifest.release_id]);
    expect(await readCurrentPointer(env.CATALOG_KV, t0 + CURRENT_POINTER_TTL_MS - 1)).toMatchObject({
      release_id: a.manifest.release_id,
    });
    expect(await readCurrentPointer(env.CATALOG_KV, t0 + CURRENT_POINTER_TTL_MS)).toMatchObject({
      release_id: b.manifest.release_id,
      previous: [a.manifest.release_id],
    });
  });

  it("never keeps 'nothing published': the first publish is served at once", async () => {
    const { kv, reads } = countingKv();
    const t0 = Date.now() + 180_000;
    expect(await readCurrentPointer(kv, t0)).toBeNull();
    expect(await readCurrentPointer(kv, t0 + 1)).toBeNull();
    expect(reads).toHaveLength(2);
    await flipElsewhere(a.manifest.release_id, []);
    expect(await readCurrentPointer(kv, t0 + 2)).toMatchObject({ release_id: a.manifest.release_id });
  });

  it("serves a publish made by this isolate from its very next request", async () => {
    await publish(a);
    const first = await api("/v1/releases/current");
    expect(((await first.json()) as { release_id: string }).release_id).toBe(a.manifest.release_id);

    await publish(b);
    const second = await api("/v1/catalog/parts/0");
    expect(second.headers.get("catalog-release")).toBe(b.manifest.release_id);
    await second.body?.cancel();
  });
});
