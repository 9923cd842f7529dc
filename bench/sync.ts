/**
 * Sync benchmark (issue 28): a copy of the 100k release kept current after a publish that retested
 * 1 % (then 10 %) of the profiles, against the real worker under `wrangler dev`. In one process and
 * the same run: `client.download()` of the new release into an empty directory (the full pull) and
 * `client.sync()` of a copy of the old release, alternated; the bytes each received, their times,
 * and that the synced file is byte-identical to the downloaded one.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, createReadStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expectDefined } from "../src/common/expect";
import { createCatalogClient, type SyncResult } from "../packages/client/src/node.js";
import { DEFAULT_PART_BYTES } from "../src/common/catalog/parts";
import { provisionBenchKey } from "./bench-servers";
import { changedRelease } from "./changed-dataset";
import { median, mib } from "./measure";
import { builtRelease } from "./served-releases";
import type { BenchContext, BenchModule, BenchPlan, BenchRow, BenchSection } from "./types";

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

const sha256Of = (file: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(file)
      .on("data", (chunk) => hash.update(chunk))
      .on("end", () => resolve(`sha256:${hash.digest("hex")}`))
      .on("error", reject);
  });

/**
 * Wall time and this process's CPU time (all its threads): the CPU time moves less with the machine's load.
 * Each call starts with no file data waiting to be written back (`sync(1)`): otherwise the copy made
 * just before it, or the previous call's 493 MiB, would be written back to the disk during it.
 */
async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; cpuSeconds: number; value: T }> {
  spawnSync("sync");
  const [started, cpu] = [performance.now(), process.cpuUsage()];
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, value };
}

export const syncBench: BenchModule = {
  name: "sync",
  async run({ plan: name, dataDir, log, rig }: BenchContext): Promise<BenchSection> {
    const plan = planOf(name);
    const base = await builtRelease(dataDir, plan.count, DEFAULT_PART_BYTES, log);
    const changed = [];
    for (const percent of plan.percents)
      changed.push({ percent, release: await changedRelease(dataDir, plan.count, percent, DEFAULT_PART_BYTES, log) });
    const scratch = mkdtempSync(path.join(tmpdir(), "bench-sync-"));
    const rows: BenchRow[] = [];
    const summary: string[] = [];
    try {
      // Every release published (its D1 rows loaded) while no wrangler dev runs over the state: a
      // load beside a running server is slow and its proxy connection broke at 10k profiles.
      // Base last: the old copy.
      await rig.stop("catalog");
      for (const release of [...changed.map((c) => c.release), base]) await rig.makeCurrent(release);
      const server = await rig.server("catalog");
      const client = createCatalogClient({ baseUrl: server.url, apiKey: await provisionBenchKey(server) });
      const oldCopy = path.join(scratch, "old.json");
      await client.download(oldCopy);
      for (const { percent, release } of changed) {
        const { bytes } = release.manifest;
        await rig.makeCurrent(base);
        await rig.makeCurrent(release); // publish computes the changes from base
        const fulls: number[] = [];
        const syncs: number[] = [];
        const fullCpu: number[] = [];
        const syncCpu: number[] = [];
        const durables: number[] = [];
        let synced: SyncResult | undefined;
        // Each timed call starts in the same state: the copies it starts from made before the
        // round, the output of the call before it removed. (The kernel's share still depends on
        // what ran before: on this machine a sync after a full pull spent 1.0-1.3 s in the kernel
        // writing its 493 MiB, one after another sync 0.3 s; docs/performance.md, "Sync".)
        for (let rep = 0; rep < plan.reps; rep++) {
          const dir = (kind: string) => path.join(scratch, `${kind}-${percent}-${rep}`);
          for (const kind of ["full", "sync", "durable"]) mkdirSync(dir(kind));
          for (const kind of ["sync", "durable"]) copyFileSync(oldCopy, path.join(dir(kind), "catalog.json"));
          log(`sync: ${percent} % changed, full pull ${rep + 1}/${plan.reps}`);
          const full = await timed(() => client.download(path.join(dir("full"), "catalog.json")));
          fulls.push(full.seconds);
          fullCpu.push(full.cpuSeconds);
          const pulled = await sha256Of(full.value.path);
          rmSync(dir("full"), { recursive: true, force: true });
          log(`sync: ${percent} % changed, sync ${rep + 1}/${plan.reps}`);
          const sync = await timed(() => client.sync(dir("sync")));
          syncs.push(sync.seconds);
          syncCpu.push(sync.cpuSeconds);
          synced = sync.value;
          const got = await sha256Of(synced.path);
          if (got !== pulled || got !== release.manifest.sha256)
            throw new Error(
              `sync: the synced copy (${got}) is not the release (${release.manifest.sha256}, pulled ${pulled})`,
            );
          if (synced.mode !== "changes") throw new Error(`sync: fell back to a full download (${synced.reason})`);
          rmSync(dir("sync"), { recursive: true, force: true });
          // The same sync flushed to the disk before its rename (`durable: true`): the disk's share.
          log(`sync: ${percent} % changed, durable sync ${rep + 1}/${plan.reps}`);
          durables.push((await timed(() => client.sync(dir("durable"), { durable: true }))).seconds);
          rmSync(dir("durable"), { recursive: true, force: true });
        }
        const [full, sync] = [median(fulls), median(syncs)];
        const last = expectDefined(synced, "a sync: plan.reps is at least one");
        const share = last.bytes / bytes;
        rows.push({
          case: `${plan.count.toLocaleString("en")} profiles (${mib(bytes)} MiB), ${percent} % retested`,
          "profiles fetched": last.profiles,
          "bytes fetched": last.bytes,
          "of the document": `${(share * 100).toFixed(2)} %`,
          "sync (s)": sync.toFixed(2),
          "full pull (s)": full.toFixed(2),
          "sync ÷ full": `${(sync / full).toFixed(3)}×`,
          "durable sync ÷ full": `${(median(durables) / full).toFixed(3)}× (${median(durables).toFixed(2)} s)`,
          "client CPU sync ÷ full": `${(median(syncCpu) / median(fullCpu)).toFixed(3)}× (${median(syncCpu).toFixed(2)} s ÷ ${median(fullCpu).toFixed(2)} s)`,
          "byte-identical": "yes",
          runs: plan.reps,
        });
        summary.push(
          `sync ${plan.count.toLocaleString("en")} profiles, ${percent} % retested: fetched ${(share * 100).toFixed(2)} % of the document` +
            `${percent === 1 ? " (target ≤ 3 %)" : ""}, ${(sync / full).toFixed(3)}× a full pull${percent === 1 ? " (target ≤ 0.15×)" : ""}, byte-identical`,
        );
      }
    } finally {
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
        "Targets at 1 %: ≤ 3 % of the document's bytes, ≤ 0.15× the full pull's time.",
      columns: [
        "case",
        "profiles fetched",
        "bytes fetched",
        "of the document",
        "sync (s)",
        "full pull (s)",
        "sync ÷ full",
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
