/**
 * Client benchmark (issue 7): `npm run catalog:pull` of a small and a large catalog from the real
 * worker under `wrangler dev`, each run a fresh process: MB/s over its whole life (startup
 * included) and peak RSS, which must not grow with the catalog. Floor, alternated with the pulls:
 * a plain Node process that GETs the same parts one after the other, writes them to a file and
 * hashes them once (bench/pull-floor.mjs), the least any verifying pull has to do.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_PART_BYTES } from "../src/common/catalog/parts";
import { provisionBenchKey } from "./bench-servers";
import { median, mib, node, packageCommand, REPO, runMeasured, type Measured } from "./measure";
import { builtRelease } from "./served-releases";
import type { BenchContext, BenchModule, BenchRow, BenchSection } from "./types";

const PLANS = {
  full: { sizes: [10_000, 100_000], reps: 3 },
  quick: { sizes: [1_000, 5_000], reps: 1 },
  smoke: { sizes: [200, 400], reps: 1 },
};

const fromJson = (json: Record<string, unknown>): Measured => ({
  seconds: json.seconds as number,
  maxRssBytes: json.max_rss_bytes as number,
});

export const clientBench: BenchModule = {
  name: "client",
  async run(context: BenchContext): Promise<BenchSection> {
    const { dataDir, log, rig } = context;
    const plan = PLANS[context.plan];
    const releases = [];
    for (const count of plan.sizes) releases.push(await builtRelease(dataDir, count, DEFAULT_PART_BYTES, log));
    const scratch = mkdtempSync(path.join(tmpdir(), "bench-client-"));
    const out = path.join(scratch, "catalog.json");
    const rows: BenchRow[] = [];
    const summary: string[] = [];
    const peaks: number[] = [];
    try {
      const server = await rig.server("catalog");
      const { url } = server;
      const key = await provisionBenchKey(server);
      const checkedOut = (bytes: number) => {
        if (statSync(out).size !== bytes)
          throw new Error(`client: ${out} is ${statSync(out).size} bytes, expected ${bytes}`);
        rmSync(out);
      };
      for (const release of releases) {
        const { bytes, profile_count: profiles } = release.manifest;
        await rig.makeCurrent(release);
        const pulls: Measured[] = [];
        const floors: Measured[] = [];
        for (let rep = 0; rep < plan.reps; rep++) {
          log(`client: ${profiles} profiles, floor ${rep + 1}/${plan.reps}`);
          floors.push(
            await retried(log, () =>
              runMeasured(node, [path.join(REPO, "bench/pull-floor.mjs"), url, out, key], fromJson),
            ),
          );
          checkedOut(bytes);
          log(`client: ${profiles} profiles, catalog:pull ${rep + 1}/${plan.reps}`);
          // Exactly `npm run catalog:pull`, with a hook that reports the process's own peak RSS.
          const pullArgs = ["--import", path.join(REPO, "bench/peak-rss.mjs"), ...packageCommand("catalog:pull")];
          pulls.push(
            await retried(log, () =>
              runMeasured(node, [...pullArgs, "--base-url", url, "--out", out], fromJson, { CATALOG_API_KEY: key }),
            ),
          );
          checkedOut(bytes);
        }
        const [pull, floor] = [median(pulls.map((m) => m.seconds)), median(floors.map((m) => m.seconds))];
        const peak = Math.max(...pulls.map((m) => m.maxRssBytes));
        peaks.push(peak);
        const mbps = bytes / 1e6 / pull;
        rows.push({
          case: `${profiles.toLocaleString("en")} profiles (${mib(bytes)} MiB, ${release.manifest.parts.length} parts)`,
          "pull (s)": pull.toFixed(2),
          "pull MB/s": mbps.toFixed(0),
          "floor (s)": floor.toFixed(2),
          "pull ÷ floor": `${(pull / floor).toFixed(2)}×`,
          "pull peak RSS (MiB)": mib(peak),
          "floor peak RSS (MiB)": mib(Math.max(...floors.map((m) => m.maxRssBytes))),
          runs: plan.reps,
        });
        summary[0] = `client catalog:pull ${profiles.toLocaleString("en")} profiles: ${mbps.toFixed(0)} MB/s (target ≥ 100) = ${(pull / floor).toFixed(2)}× floor time, peak RSS ${mib(peak)} MiB`;
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    summary.push(
      `client peak RSS across sizes: ${peaks.map(mib).join(" / ")} MiB (largest ÷ smallest ${(Math.max(...peaks) / Math.min(...peaks)).toFixed(2)}×)`,
    );
    return {
      title: "Client",
      method:
        "`npm run catalog:pull` (every part from its pinned URL, each verified, the whole document and artifact_sha256 verified, written atomically) " +
        "against the real worker under `wrangler dev`, with a live API key; a fresh process per run, timed over its whole life (startup included), median of the runs. " +
        "Floor, alternated with the pulls: a plain Node process that GETs the same parts one after the other, writes them and hashes them once. " +
        "Targets: ≥ 100 MB/s; peak RSS flat across sizes.",
      columns: [
        "case",
        "pull (s)",
        "pull MB/s",
        "floor (s)",
        "pull ÷ floor",
        "pull peak RSS (MiB)",
        "floor peak RSS (MiB)",
        "runs",
      ],
      rows,
      summary,
    };
  },
};

/**
 * `wrangler dev` restarts the worker when a source file changes (someone editing while the bench
 * runs), which cuts a download short: such a run is measured again, twice at most.
 */
async function retried(log: (line: string) => void, measure: () => Measured): Promise<Measured> {
  for (let attempt = 1; ; attempt++) {
    try {
      return measure();
    } catch (error) {
      if (attempt === 3) throw error;
      log(`client: run failed, measuring it again in 3 s (${String(error).split("\n")[0]})`);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
  }
}
