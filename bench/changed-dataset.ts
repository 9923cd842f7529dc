/**
 * A generated dataset with a share of its profiles changed the way a retest changes them: a new
 * `last_tested_at` and new text for the headline finding (the stage's and the profile's copy of
 * it, so the build's rules still hold). Every `1 / share`-th profile is changed; built once per
 * share and cached beside the base release.
 */
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { buildCatalog } from "../src/node/catalog/build/build";
import { openReleaseDir } from "../src/node/catalog/release-dir";
import type { Manifest } from "../src/common/catalog/manifest";
import { DEFAULT_INDEX_PAGE_BYTES } from "../src/common/catalog/profile-index";
import { dataset } from "./datasets";
import type { BuiltRelease } from "./served-releases";

interface Finding {
  finding: string;
}
interface RetestedProfile {
  last_tested_at: string;
  primary_finding: { stage: string; finding: Finding };
  stages: { stage: string; primary_finding: Finding }[];
}

export function retest(profile: RetestedProfile, stamp: string): void {
  profile.last_tested_at = stamp;
  const text = `${profile.primary_finding.finding.finding} Confirmed again at the retest of ${stamp.slice(0, 10)}.`;
  profile.primary_finding.finding.finding = text;
  const stage = profile.stages.find((candidate) => candidate.stage === profile.primary_finding.stage);
  if (stage) stage.primary_finding.finding = text;
}

/** The release of `count` generated profiles with `percent` % of them retested (built on first use). */
export async function changedRelease(
  dataDir: string,
  count: number,
  percent: number,
  partBytes: number,
  log: (line: string) => void,
): Promise<BuiltRelease> {
  const base = dataset(dataDir, count, log);
  const name = `${path.basename(base.file, ".ndjson")}-retested-${percent}pct`;
  const cached = path.join(dataDir, "releases", `${name}-parts-${partBytes}-index-${DEFAULT_INDEX_PAGE_BYTES}`);
  if (!existsSync(cached)) {
    const input = path.join(dataDir, `${name}.ndjson`);
    const every = Math.round(100 / percent);
    const out = createWriteStream(input);
    let line = 0;
    for await (const text of createInterface({ input: createReadStream(base.file) })) {
      if (!text) continue;
      const profile = JSON.parse(text) as RetestedProfile;
      if (line++ % every === every - 1) retest(profile, "2026-11-25T12:00:00.000Z");
      if (!out.write(`${JSON.stringify(profile)}\n`))
        await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    log(`building ${count.toLocaleString("en")} profiles, ${percent} % retested`);
    const partial = `${cached}.partial`;
    rmSync(partial, { recursive: true, force: true });
    await buildCatalog({ input, outDir: partial, partBytes });
    renameSync(partial, cached);
    rmSync(input, { force: true });
  }
  const release = openReleaseDir(cached);
  return { dir: release.dir, manifest: release.manifest as Manifest };
}
