/**
 * Sync benchmark (issue 28): a copy of the 100k release kept current after a publish that retested
 * 1 % (then 10 %) of the profiles, against the real worker under `wrangler dev`. In one process and
 * the same run: `client.download()` of the new release into an empty directory (the full pull) and
 * `client.sync()` of a copy of the old release, alternated, straight to the server and through a
 * local link shaped to 100 Mbit/s (shaped-link.ts); the bytes each received, their times, and that
 * the synced file is byte-identical to the downloaded one (sync-round.ts).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expectDefined } from "../src/common/expect";
import { createCatalogClient } from "../packages/client/src/node.js";
import { DEFAULT_PART_BYTES } from "../src/common/catalog/parts";
import { provisionBenchKey } from "./bench-servers";
import { changedRelease } from "./changed-dataset";
import { median, mib } from "./measure";
import { builtRelease } from "./served-releases";
import { openShapedLink } from "./shaped-link";
import { syncRound, type RoundResult } from "./sync-round";
import type { BenchContext, BenchModule, BenchPlan, BenchRow, BenchSection } from "./types";

/** The consumer's link the shaped figures stand for (bench/shaped-link.ts). */
const LINK_MBIT_PER_S = 100;

const PLANS = {
  full: { count: 100_000, percents: [1, 10], reps: 2 },
  quick: { count: 2_000, percents: [1, 10], reps: 1 },
  smoke: { count: 200, percents: [1], reps: 1 },
};

/** The plan, its profile count overridden by BENCH_SYNC_PROFILES (e.g. 10000 to compare changes quickly). */
function planOf(name: BenchPlan) {
  const plan = PLANS[name];
  const count = Number(process.env.BENCH_SYNC_PROFILES ?? plan.count);
  if (!Number.isSafeInteger(count) || count < 100) throw new Error("BENCH_SYNC_PROFILES: a whole number ≥ 100");
  return { ...plan, count };
}

export const syncBench: BenchModule = {
  name: "sync",
  async run({ plan: name, dataDir, log: logStep, rig }: BenchContext): Promise<BenchSection> {
    const plan = planOf(name);
    const base = await builtRelease(dataDir, plan.count, DEFAULT_PART_BYTES, logStep);
    const changed = [];
    for (const percent of plan.percents)
      changed.push({
        percent,
        release: await changedRelease(dataDir, plan.count, percent, DEFAULT_PART_BYTES, logStep),
      });
    const scratch = mkdtempSync(path.join(tmpdir(), "bench-sync-"));
    const rows: BenchRow[] = [];
    const summary: string[] = [];
    const link = { close: async () => {} };
    try {
      // Every release published (its D1 rows loaded) while no wrangler dev runs over the state: a
      // load beside a running server is slow and its proxy connection broke at 10k profiles.
      // Base last: the old copy.
      await rig.stop("catalog");
      for (const release of [...changed.map((c) => c.release), base]) await rig.makeCurrent(release);
      const server = await rig.server("catalog");
      const apiKey = await provisionBenchKey(server);
      const shaped = await openShapedLink(server.url, LINK_MBIT_PER_S);
      link.close = shaped.close;
      const clients = {
        direct: createCatalogClient({ baseUrl: server.url, apiKey }),
        shaped: createCatalogClient({ baseUrl: shaped.url, apiKey }),
      };
      const oldCopy = path.join(scratch, "old.json");
      await clients.direct.download(oldCopy);
      for (const { percent, release } of changed) {
        await rig.makeCurrent(base);
        await rig.makeCurrent(release); // publish computes the changes from base
        const rounds: RoundResult[] = [];
        for (let rep = 0; rep < plan.reps; rep++) {
          const roundDir = path.join(scratch, `${percent}-${rep}`);
          mkdirSync(roundDir);
          const log = (step: string) => logStep(`sync: ${percent} % changed, ${step} ${rep + 1}/${plan.reps}`);
          rounds.push(await syncRound({ clients, oldCopy, scratch: roundDir, expected: release.manifest.sha256, log }));
        }
        const row = rowOf(plan.count, percent, release.manifest.bytes, rounds);
        rows.push(row.row);
        summary.push(row.summary);
      }
    } finally {
      await link.close();
      rmSync(scratch, { recursive: true, force: true });
    }
    return {
      title: "Sync",
      method:
        "`client.sync(dir)` of a copy of the generated release after a publish that retested 1 % (then 10 %) of its profiles " +
        "(new `last_tested_at` and headline finding text), against the real worker under `wrangler dev` with a live API key, " +
        "alternated with a full `client.download()` of the same new release into an empty directory, in one Node process; median of the runs. " +
        "Durable sync: the same sync with `durable: true` (the file and its directory flushed to the disk before it resolves; the full pull does not flush). " +
        "Bytes fetched count the change list and the changed profiles' bytes received. Client CPU: the Node process's user + system time (every thread) during the call, not the server's. The synced file's sha256 must equal the downloaded file's and the manifest's. " +
        `At ${LINK_MBIT_PER_S} Mbit/s: the same full pull and sync through a local TCP proxy that paces each direction to ${LINK_MBIT_PER_S} Mbit/s (bench/shaped-link.ts), a consumer's link rather than loopback. ` +
        `Targets at 1 %: ≤ 3 % of the document's bytes, ≤ 0.15× the full pull's time unshaped, ≤ 0.1× at ${LINK_MBIT_PER_S} Mbit/s.`,
      columns: [
        "case",
        "profiles fetched",
        "bytes fetched",
        "of the document",
        "sync (s)",
        "full pull (s)",
        "sync ÷ full",
        `sync ÷ full at ${LINK_MBIT_PER_S} Mbit/s`,
        "durable sync ÷ full",
        "client CPU sync ÷ full",
        "byte-identical",
        "runs",
      ],
      rows,
      summary,
    };
  },
};

const ratio = (a: number, b: number) => `${(a / b).toFixed(3)}×`;

/** The report's row and summary line of one case: medians of its rounds. */
function rowOf(count: number, percent: number, bytes: number, rounds: RoundResult[]) {
  const med = (pick: (round: RoundResult) => number) => median(rounds.map(pick));
  const [full, sync, durable] = [med((r) => r.full.seconds), med((r) => r.sync.seconds), med((r) => r.durable.seconds)];
  const [fullCpu, syncCpu] = [med((r) => r.full.cpuSeconds), med((r) => r.sync.cpuSeconds)];
  const [shapedFull, shapedSync] = [med((r) => r.shapedFull.seconds), med((r) => r.shapedSync.seconds)];
  const last = expectDefined(rounds.at(-1), "a round: plan.reps is at least one").synced;
  const share = last.bytes / bytes;
  const row: BenchRow = {
    case: `${count.toLocaleString("en")} profiles (${mib(bytes)} MiB), ${percent} % retested`,
    "profiles fetched": last.profiles,
    "bytes fetched": last.bytes,
    "of the document": `${(share * 100).toFixed(2)} %`,
    "sync (s)": sync.toFixed(2),
    "full pull (s)": full.toFixed(2),
    "sync ÷ full": ratio(sync, full),
    [`sync ÷ full at ${LINK_MBIT_PER_S} Mbit/s`]: `${ratio(shapedSync, shapedFull)} (${shapedSync.toFixed(2)} s ÷ ${shapedFull.toFixed(2)} s)`,
    "durable sync ÷ full": `${ratio(durable, full)} (${durable.toFixed(2)} s)`,
    "client CPU sync ÷ full": `${ratio(syncCpu, fullCpu)} (${syncCpu.toFixed(2)} s ÷ ${fullCpu.toFixed(2)} s)`,
    "byte-identical": "yes",
    runs: rounds.length,
  };
  const target = (text: string) => (percent === 1 ? ` (target ${text})` : "");
  const summary =
    `sync ${count.toLocaleString("en")} profiles, ${percent} % retested: fetched ${(share * 100).toFixed(2)} % of the document` +
    `${target("≤ 3 %")}, ${ratio(sync, full)} a full pull${target("≤ 0.15×")}, ` +
    `${ratio(shapedSync, shapedFull)} at ${LINK_MBIT_PER_S} Mbit/s${target("≤ 0.1×")}, byte-identical`;
  return { row, summary };
}
