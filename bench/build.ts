/**
 * Build benchmark (issue 7): `catalog:build` of generated catalogs against the floor measured in
 * the same run — JSON.parse + SHA-256 + JSON.stringify of the same bytes in a plain Node process.
 * Reports wall time ÷ floor and peak RSS per size (it must stay flat: the 200k catalog is past
 * V8's ~512 MiB string limit, so only a streaming build gets through at all).
 */
import { availableParallelism } from "node:os";
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import type { BuildProgress } from "../src/node/catalog/build/build";
import { dataset } from "./datasets";
import { median, mib, node, packageCommand, REPO, runMeasured, type Measured } from "./measure";
import type { BenchContext, BenchModule, BenchPlan, BenchRow, BenchSection } from "./types";

const PLANS: Record<BenchPlan, { count: number; reps: number }[]> = {
  full: [
    { count: 10_000, reps: 3 },
    { count: 100_000, reps: 3 },
    { count: 200_000, reps: 1 },
  ],
  quick: [
    { count: 1_000, reps: 2 },
    { count: 5_000, reps: 2 },
  ],
  smoke: [
    { count: 200, reps: 1 },
    { count: 400, reps: 1 },
  ],
};

type Phase = BuildProgress["phase"];
const PHASES: readonly Phase[] = ["validate", "write", "hash"];
type MeasuredBuild = Measured & { phases: Record<Phase, number> };

const fromStats = (json: Record<string, unknown>): MeasuredBuild => {
  const stats = json.stats as {
    seconds: number;
    cpu_seconds: number;
    max_rss_bytes: number;
    phase_seconds: Record<Phase, number>;
  };
  return {
    seconds: stats.seconds,
    cpuSeconds: stats.cpu_seconds,
    maxRssBytes: stats.max_rss_bytes,
    phases: stats.phase_seconds,
  };
};
const fromFloor = (json: Record<string, unknown>): Measured => ({
  seconds: json.seconds as number,
  cpuSeconds: json.cpu_seconds as number,
  maxRssBytes: json.max_rss_bytes as number,
});

function buildOnce(file: string, dataDir: string): MeasuredBuild {
  const out = mkdtempSync(path.join(dataDir, "build-"));
  try {
    return runMeasured(
      node,
      [...packageCommand("catalog:build"), "--in", file, "--out", out, "--json", "--stats"],
      fromStats,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export const buildBench: BenchModule = {
  name: "build",
  async run({ plan, dataDir, log }: BenchContext): Promise<BenchSection> {
    const rows: BenchRow[] = [];
    const peaks: number[] = [];
    let headline = "";
    for (const { count, reps } of PLANS[plan]) {
      const data = dataset(dataDir, count, log);
      const builds: MeasuredBuild[] = [];
      const floors: Measured[] = [];
      for (let rep = 0; rep < reps; rep++) {
        // Alternate floor and build so that a burst of load on the machine hits both alike.
        log(`build ${count}: floor ${rep + 1}/${reps}`);
        floors.push(runMeasured(node, [path.join(REPO, "bench/floor.mjs"), data.file], fromFloor));
        log(`build ${count}: catalog:build ${rep + 1}/${reps}`);
        builds.push(buildOnce(data.file, dataDir));
      }
      const build = median(builds.map((m) => m.seconds));
      const floor = median(floors.map((m) => m.seconds));
      const peak = Math.max(...builds.map((m) => m.maxRssBytes));
      peaks.push(peak);
      const ratio = build / floor;
      const cpuRatio = median(builds.map((m) => m.cpuSeconds ?? NaN)) / median(floors.map((m) => m.cpuSeconds ?? NaN));
      rows.push({
        case: `${count.toLocaleString("en")} profiles (${mib(data.bytes)} MiB)`,
        "build (s)": build.toFixed(2),
        "floor (s)": floor.toFixed(2),
        "build ÷ floor": `${ratio.toFixed(2)}×`,
        "CPU ÷ floor CPU": `${cpuRatio.toFixed(2)}×`,
        "validate · write · hash (s)": PHASES.map((phase) =>
          median(builds.map((m) => m.phases[phase])).toFixed(2),
        ).join(" · "),
        "build MB/s": (data.bytes / 1e6 / build).toFixed(0),
        "build peak RSS (MiB)": mib(peak),
        "floor peak RSS (MiB)": mib(Math.max(...floors.map((m) => m.maxRssBytes))),
        runs: reps,
      });
      headline = `build ${count.toLocaleString("en")} profiles: ${build.toFixed(1)} s = ${ratio.toFixed(2)}× floor (target ≤ 2×; CPU ${cpuRatio.toFixed(2)}× floor CPU), peak RSS ${mib(peak)} MiB`;
    }
    const flat = Math.max(...peaks) / Math.min(...peaks);
    return {
      title: "Build",
      method:
        `\`npm run catalog:build\` of generated ndjson catalogs (median of the runs), each in a fresh process, on ${availableParallelism()} cores. ` +
        "Floor: a plain Node process reading the same file and doing `JSON.parse` + SHA-256 + `JSON.stringify` of every profile (median, alternated with the builds). " +
        "CPU ÷ floor CPU compares the CPU time of all threads, which a busy machine disturbs less than wall time. " +
        "The build's passes (medians, from its own progress): validate (from the start, workers' start-up included), write (the merge into the part files), hash (the whole document's digest). " +
        "Targets: build ≤ 2× floor; peak RSS < 300 MiB at any size and flat across sizes.",
      columns: [
        "case",
        "build (s)",
        "floor (s)",
        "build ÷ floor",
        "CPU ÷ floor CPU",
        "validate · write · hash (s)",
        "build MB/s",
        "build peak RSS (MiB)",
        "floor peak RSS (MiB)",
        "runs",
      ],
      rows,
      summary: [
        headline,
        `build peak RSS across sizes: ${peaks.map(mib).join(" / ")} MiB (largest ÷ smallest ${flat.toFixed(2)}×)`,
      ],
    };
  },
};
