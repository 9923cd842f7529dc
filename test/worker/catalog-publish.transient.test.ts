/**
 * Publish and rollback under transient storage failures (src/node/catalog/retrying-storage.ts):
 * each storage call that fails for a moment is tried again, so both finish; and queries running
 * meanwhile, over a D1 that is busy now and then, are never answered 500.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { PUBLISH_RETRIES } from "../../src/common/transient";
import { readCurrent, rollbackRelease } from "../../src/node/catalog/publish";
import { apiWithBindings } from "./support/api";
import { publish, testRelease, workerStorage } from "./support/releases";
import { resetStorage } from "./support/reset-storage";
import { busyD1, faults, flakyStorage } from "./support/transient-faults";

const a = testRelease("base");
const b = testRelease("smaller");
const QUERIES = ["/v1/profiles?limit=20", "/v1/profiles?q=api&limit=5", "/v1/products?limit=10"];
/**
 * Publish's tries (PUBLISH_RETRIES.attempts) with waits of at most 20 ms between them: the tries are
 * what these tests are about; the real waits (up to 100 ms before each second try, hundreds of them)
 * only kept the runner idle (the two tests 16.6 → 5.4 s).
 */
const retries = { ...PUBLISH_RETRIES, baseMs: 1, capMs: 20 };

beforeEach(() => resetStorage());

describe("publish and rollback meeting transient storage failures", () => {
  it("finish when every other R2, KV and D1 call fails as busy or disconnected", { timeout: 120_000 }, async () => {
    await publish(a);
    const fault = faults(Number.POSITIVE_INFINITY, 2);
    const flaky = flakyStorage(workerStorage(), fault);
    const published = await publish(b, flaky, { loadBatchProfiles: 5, retries });
    expect(published).toMatchObject({ pointer_flipped: true, release_id: b.manifest.release_id });
    const rolledBack = await rollbackRelease(flaky, a.manifest.release_id, { retries });
    expect(rolledBack.pointer_flipped).toBe(true);
    expect((await readCurrent(env.CATALOG_KV))?.release_id).toBe(a.manifest.release_id);
    expect(fault.given).toBeGreaterThan(20);
  });

  it("queries running while a publish and a rollback run are never 500", { timeout: 120_000 }, async () => {
    await publish(a);
    // Every third query batch meets a busy database, as readers do while a publish loads its rows.
    const busy = faults(Number.POSITIVE_INFINITY, 3);
    const db = busyD1(env.CATALOG_DB, busy);
    const statuses: number[] = [];
    let writing = true;
    const readers = Array.from({ length: 4 }, async (_, reader) => {
      for (let i = reader; writing || i < reader + QUERIES.length; i++) {
        const res = await apiWithBindings({ ...env, CATALOG_DB: db }, QUERIES[i % QUERIES.length] ?? "");
        await res.arrayBuffer();
        statuses.push(res.status);
      }
    });
    const flaky = flakyStorage(workerStorage(), faults(Number.POSITIVE_INFINITY, 2));
    try {
      await publish(b, flaky, { loadBatchProfiles: 5, retries });
      await rollbackRelease(flaky, a.manifest.release_id, { retries });
    } finally {
      writing = false;
    }
    await Promise.all(readers);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses.length).toBeGreaterThan(QUERIES.length * 4);
    expect(busy.given).toBeGreaterThan(0);
  });
});
