/**
 * client.sync(dir) and `catalog:pull --sync` against the real `wrangler dev`: releases built from
 * edited copies of the samples, published with catalog:publish (the first through its door, the
 * others in process), synced after each publish and after a rollback — the copy byte-identical to
 * the release each time, with only the changed profiles fetched; a sync aborted at each of its
 * steps leaves the old copy whole, and the next finishes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogClient, type SyncProgress, type SyncResult } from "../../packages/client/src/node.js";
import { apiKeyFor, provisionedApiKey } from "./support/api-key";
import { catalogState, SAMPLE_PROFILES, type CatalogState } from "./support/catalog-state";
import { runScript } from "./support/scripts";
import { startWranglerDev, type DevServer } from "./support/wrangler-dev";
import { expectDefined } from "../../src/common/expect";

type Built = Awaited<ReturnType<CatalogState["build"]>>;
let state: CatalogState;
let server: DevServer;
const releases: Record<"a" | "b" | "c" | "most" | "unpublished", Built> = {} as never;

const sampleFiles = () =>
  readdirSync(SAMPLE_PROFILES)
    .filter((file) => file.endsWith(".json"))
    .sort();

/** The samples, `retested` of them with a new last_tested_at, `removed` left out, `added` new ones. */
function edition(name: string, edit: { retested: number[]; removed: number[]; added: number; stamp: string }) {
  const files = sampleFiles();
  const profiles = files.map((file) => JSON.parse(readFileSync(path.join(SAMPLE_PROFILES, file), "utf8")));
  for (const i of edit.retested) profiles[i].last_tested_at = edit.stamp;
  const kept = profiles.filter((_, i) => !edit.removed.includes(i));
  for (let i = 0; i < edit.added; i++)
    kept.push({
      ...profiles[2],
      agent_readiness_profile_id: `arp_${name[0]}${String(i).padStart(25, "0")}`,
      scope: { product: profiles[2].scope.product, funnel: { key: `${name}-added-${i}`, name: `Added ${i}` } },
    });
  const file = path.join(state.dir, `${name}.ndjson`);
  writeFileSync(file, `${kept.map((p) => JSON.stringify(p)).join("\n")}\n`);
  return file;
}

const client = () => createCatalogClient({ baseUrl: server.url, apiKey: apiKeyFor(server.url) });
const copyIn = (dir: string) => readFileSync(path.join(dir, "catalog.json"));
/** A new directory `name` holding `document` as its local copy (catalog.json), to sync. */
function localCopy(name: string, document: Buffer): string {
  const dir = path.join(state.dir, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "catalog.json"), document);
  return dir;
}
const leftovers = (dir: string) => readdirSync(dir).filter((name) => name !== "catalog.json");

/**
 * `catalog:publish` of `release` while the server runs: the command in this process (its `run`,
 * what the door runs), a Node, tsx and wrangler start fewer each time; the first publish, before
 * the server starts, goes through the door as a process.
 */
async function publish(release: Built) {
  const run = await state.publishInProcess(release.releaseDir);
  expect(run.code, run.stderr).toBe(0);
  await servedWithin(release.manifest.release_id);
}

/** `release` current, published only if it is not already: each test's starting point, one publish fewer when it is. */
async function current(release: Built) {
  if ((await client().currentRelease()).release_id !== release.manifest.release_id) await publish(release);
}

async function servedWithin(releaseId: string) {
  const deadline = Date.now() + 3_000;
  while ((await client().currentRelease()).release_id !== releaseId) {
    if (Date.now() > deadline) throw new Error(`${releaseId} not served`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Five builds, a publish and a wrangler dev start: past 240 s at a load average of 16 on 2 cores.
beforeAll(async () => {
  state = catalogState();
  const stamp = (day: number) => `2026-11-${day}T10:00:00.500Z`;
  releases.a = await state.build(SAMPLE_PROFILES);
  releases.b = await state.build(edition("b", { retested: [1, 7, 8, 19], removed: [4], added: 1, stamp: stamp(21) }));
  releases.c = await state.build(edition("c", { retested: [0, 7, 25], removed: [4, 5], added: 2, stamp: stamp(22) }));
  // 20 of 26 profiles retested: past half the document, too large to sync by changes.
  releases.most = await state.build(
    edition("m", { retested: [...Array(20).keys()], removed: [], added: 0, stamp: stamp(24) }),
  );
  releases.unpublished = await state.build(edition("u", { retested: [3], removed: [], added: 0, stamp: stamp(23) }));
  // Through the door, before the server starts: served once it is up.
  const first = await state.publish(releases.a.releaseDir);
  expect(first.code, first.stderr).toBe(0);
  server = await startWranglerDev({ persistTo: state.persistTo });
}, 420_000);

afterAll(async () => {
  await server?.stop();
  state?.remove();
});

describe("sync", () => {
  // Three publishes and a rollback: past the default 120 s on a loaded 2-core machine.
  it("across publishes and a rollback: exact bytes each time, only the changed profiles fetched", {
    timeout: 300_000,
  }, async () => {
    const dir = path.join(state.dir, "copy");
    const first = await client().sync(dir);
    expect(first).toMatchObject({ mode: "full", reason: "no-local-copy", release_id: releases.a.manifest.release_id });
    expect(copyIn(dir).equals(releases.a.document)).toBe(true);

    // Fetched: changed + added. a→b: 4 retested, 1 added. b→c: 0, 7, 25 retested again, b's 1, 8, 19
    // back to a's bytes, 2 added (b's added one and 5 removed).
    const steps: [Built, number][] = [
      [releases.b, 4 + 1],
      [releases.c, 6 + 2],
    ];
    for (const [release, fetched] of steps) {
      await publish(release);
      const result = await client().sync(dir);
      expect(result).toMatchObject({ mode: "changes", release_id: release.manifest.release_id, profiles: fetched });
      expect(result.bytes).toBeLessThan(release.manifest.bytes / 2);
      expect(copyIn(dir).equals(release.document)).toBe(true);
      expect(leftovers(dir)).toEqual([]);
    }

    const rollback = await runScript("catalog-rollback.ts", [
      "--release-id",
      releases.a.manifest.release_id,
      "--persist-to",
      state.persistTo,
    ]);
    expect(rollback.code, rollback.stderr).toBe(0);
    await servedWithin(releases.a.manifest.release_id);
    const back = await client().sync(dir);
    expect(back).toMatchObject({ mode: "changes", previous_release_id: releases.c.manifest.release_id });
    expect(copyIn(dir).equals(releases.a.document)).toBe(true);
    expect(await client().sync(dir)).toMatchObject({ mode: "changes", profiles: 0, bytes: 0 });
  });

  // The last stop (every changed profile read) once hung: test/node/client-body-abort.test.ts.
  it("aborted at each step, the old copy stays whole and nothing is left beside it; the next sync finishes", {
    timeout: 300_000,
  }, async () => {
    await current(releases.c);
    const dir = localCopy("interrupted", releases.b.document);
    const steps: SyncProgress[] = [];
    const probe = localCopy("probe", releases.b.document);
    await client().sync(probe, { onProgress: (progress) => steps.push(progress) });
    expect(steps.length).toBeGreaterThan(2);
    // The last report ("verified") comes after the copy was replaced: every one before it is a step.
    expect(steps.at(-1)).toMatchObject({ mode: "changes", phase: "verified" });
    // Every step when there are few; else 8 spread over them, the first and the last included (each
    // abort is a whole sync against wrangler dev, under the key's rate limit).
    const count = steps.length - 1;
    const stops =
      count <= 8
        ? [...Array(count).keys()]
        : [...new Set(Array.from({ length: 8 }, (_, i) => Math.round((i * (count - 1)) / 7)))];
    for (const stop of stops) {
      const controller = new AbortController();
      let seen = 0;
      const outcome = await client()
        .sync(dir, {
          signal: controller.signal,
          onProgress: () => {
            if (seen++ === stop) controller.abort();
          },
        })
        .catch((error: unknown) => error);
      expect(outcome, `step ${stop}`).toBeInstanceOf(DOMException);
      expect(copyIn(dir).equals(releases.b.document), `step ${stop}`).toBe(true);
      expect(leftovers(dir), `step ${stop}`).toEqual([]);
    }
    expect((await client().sync(dir)).mode).toBe("changes");
    expect(copyIn(dir).equals(releases.c.document)).toBe(true);
  });

  it("falls back to a full download when the local release is gone (410) or the local copy does not rebuild", async () => {
    await current(releases.c);
    const gone = localCopy("gone", releases.unpublished.document);
    const result: SyncResult = await client().sync(gone);
    expect(result).toMatchObject({ mode: "full", reason: "release-gone" });
    expect(copyIn(gone).equals(releases.c.document)).toBe(true);

    const copy = Buffer.from(releases.a.document);
    // A byte of a profile c did not change (sample 12): the rebuilt document cannot verify.
    const unchanged = JSON.parse(
      readFileSync(path.join(SAMPLE_PROFILES, expectDefined(sampleFiles()[12], "sample 12")), "utf8"),
    );
    const at = copy.indexOf(`"agent_readiness_profile_id":"${unchanged.agent_readiness_profile_id}"`);
    expect(at).toBeGreaterThan(0);
    copy[at + 40] = expectDefined(copy[at + 40], "a byte of that profile") ^ 1;
    const damaged = localCopy("damaged", copy);
    expect(await client().sync(damaged)).toMatchObject({ mode: "full", reason: "local-copy-mismatch" });
    expect(copyIn(damaged).equals(releases.c.document)).toBe(true);
  });

  // Two publishes: past the default 120 s on a loaded 2-core machine.
  it("changes past half the document: a full download that fetches no change list, judged from the history", {
    timeout: 300_000,
  }, async () => {
    await current(releases.c);
    await publish(releases.most);
    const dir = localCopy("most", releases.c.document);
    const received: { path: string; bytes: number }[] = [];
    const counting = async (request: Request) => {
      const response = await fetch(request);
      const entry = { path: new URL(request.url).pathname, bytes: 0 };
      received.push(entry);
      const counter = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          entry.bytes += chunk.length;
          controller.enqueue(chunk);
        },
      });
      return new Response(response.body?.pipeThrough(counter) ?? null, response);
    };
    const synced = await createCatalogClient({
      baseUrl: server.url,
      apiKey: provisionedApiKey(server.url),
      fetch: counting,
    }).sync(dir);
    expect(synced).toMatchObject({ mode: "full", reason: "changes-too-large" });
    expect(copyIn(dir).equals(releases.most.document)).toBe(true);
    expect(received.map((r) => r.path).filter((p) => p.includes("/changes"))).toEqual([]);
    // The document, its manifest twice (sync's and the download's) and one page of history.
    const total = received.reduce((sum, r) => sum + r.bytes, 0);
    expect(total).toBeLessThanOrEqual(releases.most.manifest.bytes + 8 * 1024);
    expect(synced.bytes).toBeLessThanOrEqual(total);
  });

  // --durable adds an fsync of the file and its directory: what it changes shows only after an OS
  // crash, so this checks that the flag is taken and the copy is the same verified bytes.
  it("npm run catalog:pull -- --sync DIR --durable says what it fetched", async () => {
    await current(releases.c);
    const dir = localCopy("cli", releases.b.document);
    const run = await runScript("catalog-pull.ts", ["--base-url", server.url, "--sync", dir, "--durable"], {
      env: { CATALOG_API_KEY: provisionedApiKey(server.url) },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/synced: .* holds sha256:[0-9a-f]{64}, verified; \d+ changed profiles fetched/);
    expect(copyIn(dir).equals(releases.c.document)).toBe(true);
    expect(existsSync(path.join(dir, "catalog.json"))).toBe(true);
  });
});
