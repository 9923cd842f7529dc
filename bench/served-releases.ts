/**
 * Releases for the serve and client benchmarks: a generated dataset (datasets.ts) built by the real
 * build (`buildCatalog`) once per part size and cached in the data directory, then published with
 * the real publish (`publishRelease`, in bench-rig.ts) into the bench's persisted state. Publishing a
 * release that is already stored uploads nothing; it verifies and makes it current again.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { buildCatalog } from "../src/node/catalog/build/build";
import { openReleaseDir } from "../src/node/catalog/release-dir";
import type { Manifest } from "../src/common/catalog/manifest";
import { DEFAULT_INDEX_PAGE_BYTES } from "../src/common/catalog/profile-index";
import { dataset } from "./datasets";

/** The persisted state (`wrangler dev --persist-to`) the serve and client benchmarks share: big releases are uploaded once. */
/**
 * The persisted wrangler state the serve bench publishes into. Named like the cached releases, so
 * a state holding a release published by a build without an index (same release id, another
 * manifest) is not reused: publishing over it is refused, as releases are immutable.
 */
export const benchStateDir = (dataDir: string) => path.join(dataDir, `serve-state-index-${DEFAULT_INDEX_PAGE_BYTES}`);

export interface BuiltRelease {
  dir: string;
  manifest: Manifest;
}

/** The release of `count` generated profiles cut into `partBytes` parts (built on first use). */
export async function builtRelease(
  dataDir: string,
  count: number,
  partBytes: number,
  log: (line: string) => void,
): Promise<BuiltRelease> {
  const data = dataset(dataDir, count, log);
  // The index's page size in the name too: a release cached by a build without an index is not used.
  const cached = path.join(
    dataDir,
    "releases",
    `${path.basename(data.file, ".ndjson")}-parts-${partBytes}-index-${DEFAULT_INDEX_PAGE_BYTES}`,
  );
  if (!existsSync(cached)) {
    log(`building ${count.toLocaleString("en")} profiles in ${partBytes}-byte parts`);
    const partial = `${cached}.partial`;
    rmSync(partial, { recursive: true, force: true });
    await buildCatalog({ input: data.file, outDir: partial, partBytes });
    renameSync(partial, cached);
  }
  const release = openReleaseDir(cached);
  return { dir: release.dir, manifest: release.manifest as Manifest };
}
