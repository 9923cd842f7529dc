/**
 * The D1 load of publish and the queries around it: paging stays in the release it started in when
 * a publish happens in between; an interrupted load leaves `current` and its rows as they were and a
 * retry finishes it; releases no longer kept lose their rows, kept ones keep them through rollback.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { readCurrent, rollbackRelease } from "../../src/node/catalog/publish";
import { api } from "./support/api";
import { oracleProfiles, oracleQuery } from "./support/query-oracle";
import { publish, releaseIndex, testRelease, workerStorage, type TestRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";
import { countingStorage, SimulatedOutage } from "./support/storage-faults";

const generated = testRelease("generated");
const next = testRelease("generatedNext");
const idsOf = (release: TestRelease, params: Record<string, string>) =>
  oracleQuery(oracleProfiles(release), params).map((p) => p.profile.agent_readiness_profile_id);
const rowsOf = async (release: TestRelease) =>
  (
    await env.CATALOG_DB.prepare("SELECT count(*) AS n FROM query_profiles WHERE release = ?")
      .bind(release.manifest.release_id.slice(7))
      .first<{ n: number }>()
  )?.n;

interface ListBody {
  release_id: string;
  count: number;
  data: { agent_readiness_profile_id: string }[];
  next: string | null;
}
const get = async (path: string) => {
  const res = await api(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as ListBody;
};

beforeEach(() => resetStorage());

describe("queries across a publish", () => {
  it("a client paging through a query stays in its release after another is published", {
    timeout: 60_000,
  }, async () => {
    await publish(generated);
    const first = await get("/v1/profiles?grade=B&limit=10");
    expect(first.release_id).toBe(generated.manifest.release_id);
    await publish(next);

    const ids = first.data.map((p) => p.agent_readiness_profile_id);
    for (let path = first.next; path; ) {
      const page = await get(path);
      expect(page.release_id).toBe(generated.manifest.release_id);
      ids.push(...page.data.map((p) => p.agent_readiness_profile_id));
      path = page.next;
    }
    expect(ids).toEqual(idsOf(generated, { grade: "B" }));

    const now = await get("/v1/profiles?grade=B&limit=100");
    expect(now.release_id).toBe(next.manifest.release_id);
    expect(now.data.map((p) => p.agent_readiness_profile_id)).toEqual(idsOf(next, { grade: "B" }));
  });
});

describe("an interrupted load", () => {
  it("leaves current and its rows as they were; the retry finishes the load, then flips", {
    timeout: 60_000,
  }, async () => {
    await publish(generated);
    // Every object and the manifest, and one D1 batch of rows: the load stops after it, while the
    // next batch was already read and bound (one batch is in flight while the next is built).
    const objects =
      next.manifest.parts.length + releaseIndex(next.manifest).reduce((n, i) => n + i.segments.length, 0) + 2;
    const batchProfiles = 100;
    expect(next.manifest.profile_count).toBeGreaterThan(2 * batchProfiles);
    await expect(
      publish(next, countingStorage(workerStorage(), objects + 1), { loadBatchProfiles: batchProfiles }),
    ).rejects.toThrow(SimulatedOutage);

    expect((await readCurrent(env.CATALOG_KV))?.release_id).toBe(generated.manifest.release_id);
    expect(await rowsOf(next)).toBe(batchProfiles);
    expect(await rowsOf(generated)).toBe(generated.manifest.profile_count);
    const served = await get("/v1/profiles?stage.pay=limited&limit=100");
    expect(served.release_id).toBe(generated.manifest.release_id);
    expect(served.count).toBe(idsOf(generated, { "stage.pay": "limited" }).length);
    // The half-loaded release is not served by its pinned URL either.
    expect((await api(`/v1/releases/${next.manifest.release_id}/profiles`)).status).toBe(404);

    const finished = await publish(next);
    expect(finished.pointer_flipped).toBe(true);
    expect(finished.query_rows_loaded).toBe(next.manifest.profile_count);
    expect(await rowsOf(next)).toBe(next.manifest.profile_count);
    const all = await get("/v1/profiles?sort=-grade&limit=100&q=api");
    expect(all.release_id).toBe(next.manifest.release_id);
    expect(all.count).toBe(idsOf(next, { q: "api" }).length);
    expect(all.data.map((p) => p.agent_readiness_profile_id)).toEqual(
      idsOf(next, { sort: "-grade", q: "api" }).slice(0, 100),
    );
  });

  it("publishing a loaded release again loads nothing", { timeout: 60_000 }, async () => {
    await publish(generated);
    const again = await publish(generated);
    expect(again.query_rows_loaded).toBe(0);
    expect(await rowsOf(generated)).toBe(generated.manifest.profile_count);
  });
});

describe("kept releases", () => {
  it("keep their rows through a rollback; a release no longer kept loses them", { timeout: 60_000 }, async () => {
    await publish(generated);
    await publish(next);
    await rollbackRelease(workerStorage(), generated.manifest.release_id);
    expect((await get("/v1/profiles?limit=1")).release_id).toBe(generated.manifest.release_id);
    expect(await rowsOf(next)).toBe(next.manifest.profile_count);

    // Six other releases later, `generated` is no longer kept (current and the 5 before it are).
    for (const name of ["base", "smaller", "smallest", "wide", "wideSmallPages", "generatedNext"] as const)
      await publish(testRelease(name));
    expect(await rowsOf(generated)).toBe(0);
    expect((await api(`/v1/releases/${generated.manifest.release_id}/profiles`)).status).toBe(404);
  });
});
