/**
 * One round of the sync bench (bench/sync.ts): a full pull and a sync of the same new release,
 * timed from the same starting state, straight to the server and through a shaped link
 * (shaped-link.ts), plus the durable sync; the synced file must be the pulled one, byte for byte.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, createReadStream, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { NodeCatalogClient as CatalogClient, SyncResult } from "../packages/client/src/node.js";

interface Timed {
  seconds: number;
  cpuSeconds: number;
}

export interface RoundResult {
  full: Timed;
  sync: Timed;
  durable: Timed;
  shapedFull: Timed;
  shapedSync: Timed;
  synced: SyncResult;
}

interface RoundSetup {
  /** Straight to the server, and through the shaped link. */
  clients: { direct: CatalogClient; shaped: CatalogClient };
  /** The old release's document, copied into each sync's directory. */
  oldCopy: string;
  /** A directory of this round's own. */
  scratch: string;
  /** The new release's sha256. */
  expected: string;
  log: (line: string) => void;
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
async function timed<T>(work: () => Promise<T>): Promise<Timed & { value: T }> {
  spawnSync("sync");
  const [started, cpu] = [performance.now(), process.cpuUsage()];
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, value };
}

/**
 * Each timed call starts in the same state: the copies it starts from made before the round, the
 * output of the call before it removed. (The kernel's share still depends on what ran before: on
 * this machine a sync after a full pull spent 1.0-1.3 s in the kernel writing its 493 MiB, one
 * after another sync 0.3 s; docs/performance.md, "Sync".)
 */
export async function syncRound(setup: RoundSetup): Promise<RoundResult> {
  const dir = (kind: string) => path.join(setup.scratch, kind);
  const kinds = ["full", "sync", "durable", "shaped-full", "shaped-sync"];
  for (const kind of kinds) mkdirSync(dir(kind));
  for (const kind of ["sync", "durable", "shaped-sync"])
    copyFileSync(setup.oldCopy, path.join(dir(kind), "catalog.json"));
  const pull = async (kind: string, client: CatalogClient) => {
    setup.log(`${kind}`);
    const run = await timed(() => client.download(path.join(dir(kind), "catalog.json")));
    await expectRelease(run.value.path, setup.expected, kind);
    rmSync(dir(kind), { recursive: true, force: true });
    return run;
  };
  const sync = async (kind: string, client: CatalogClient, durable = false) => {
    setup.log(`${kind}`);
    const run = await timed(() => client.sync(dir(kind), { durable }));
    await expectRelease(run.value.path, setup.expected, kind);
    if (run.value.mode !== "changes")
      throw new Error(`sync: ${kind} fell back to a full download (${run.value.reason})`);
    rmSync(dir(kind), { recursive: true, force: true });
    return run;
  };
  const full = await pull("full", setup.clients.direct);
  const synced = await sync("sync", setup.clients.direct);
  // The same sync flushed to the disk before its rename (`durable: true`): the disk's share.
  const durable = await sync("durable", setup.clients.direct, true);
  const shapedFull = await pull("shaped-full", setup.clients.shaped);
  const shapedSync = await sync("shaped-sync", setup.clients.shaped);
  return { full, sync: synced, durable, shapedFull, shapedSync, synced: synced.value };
}

async function expectRelease(file: string, expected: string, kind: string) {
  const got = await sha256Of(file);
  if (got !== expected) throw new Error(`sync: the ${kind} copy (${got}) is not the release (${expected})`);
}
