/**
 * Which release `npm start` serves (src/node/start/release.ts), over real local KV and R2 (wrangler's
 * platform proxy on a temporary --persist-to): the sample only where nothing is current, or when
 * asked; a release the developer published stays current.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishRelease, readCurrent } from "../../src/node/catalog/publish";
import { buildCatalog } from "../../src/node/catalog/build/build";
import { openDeploymentStorage, type DeploymentStorage } from "../../src/node/local/deployment-storage";
import { openReleaseDir } from "../../src/node/catalog/release-dir";
import { releaseToServe, type SampleBuild } from "../../src/node/start/release";
import { PROFILES_DIR } from "./profile-fixtures";

let dir: string;
let opened: DeploymentStorage;
let sample: SampleBuild;
let own: SampleBuild;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "start-release-"));
  sample = await buildCatalog({ input: PROFILES_DIR, outDir: path.join(dir, "dist") });
  own = await buildCatalog({
    input: path.join(PROFILES_DIR, "contoso-ledger-cloud--invoicing.json"),
    outDir: path.join(dir, "dist"),
  });
  opened = await openDeploymentStorage({ persistTo: path.join(dir, "state") });
}, 60_000);

afterAll(async () => {
  await opened?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe("releaseToServe", () => {
  it("publishes the sample where nothing is current, and only there", async () => {
    const first = await releaseToServe(opened.storage, sample, { publishSample: false });
    expect(first).toMatchObject({
      release_id: sample.manifest.release_id,
      profile_count: 26,
      sample: true,
      publishedNow: true,
    });
    const again = await releaseToServe(opened.storage, sample, { publishSample: false });
    expect(again).toEqual({ ...first, publishedNow: false });
  });

  it("keeps a release the developer published, saying it is not the sample", async () => {
    const published = await publishRelease(opened.storage, openReleaseDir(own.releaseDir));
    const served = await releaseToServe(opened.storage, sample, { publishSample: false });
    expect(served).toEqual({
      release_id: own.manifest.release_id,
      profile_count: 1,
      published_at: published.published_at,
      sample: false,
      publishedNow: false,
    });
    expect((await readCurrent(opened.storage.kv))?.release_id).toBe(own.manifest.release_id);
  });

  it("--publish-sample makes the sample current again; the developer's release stays kept for a rollback", async () => {
    const served = await releaseToServe(opened.storage, sample, { publishSample: true });
    expect(served).toMatchObject({ release_id: sample.manifest.release_id, sample: true, publishedNow: true });
    expect(await readCurrent(opened.storage.kv)).toEqual({
      release_id: sample.manifest.release_id,
      previous: [own.manifest.release_id],
    });
  });
});
