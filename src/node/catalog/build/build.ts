/**
 * `buildCatalog`: input profiles → a release directory `<outDir>/<hex>/{manifest.json, parts/<n>,
 * index/<name>/<n>}` (docs/catalog-build.md). Three passes, memory independent of the
 * catalog size: validate + canonicalize + spill (external sort); merge in catalog order into the
 * part files while hashing `data` and writing the release index; hash every part and the whole document. Everything is built in
 * a temporary directory beside `outDir` and renamed into place only when the input was valid.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { Manifest } from "../../../common/catalog/manifest";
import { apiContractOf } from "../../../common/catalog/digest";
import { DEFAULT_PART_BYTES } from "../../../common/catalog/parts";
import { DEFAULT_INDEX_PAGE_BYTES } from "../../../common/catalog/profile-index";
import { API_CONTRACT_PATTERN } from "../../../common/catalog/schema";
import { CatalogOrderCheck, CatalogTally, type CatalogEntry } from "../validation-catalog";
import { readNamespace } from "./config";
import { assembleDocument } from "./document-assembly";
import { UsageError } from "../../cli/cli-run";
import { planInput } from "./input";
import { writeManifest } from "./manifest-file";
import { CheckPool, checkInOrder } from "./check-pool";
import { ReleaseIndexBuilder } from "./release-index";
import { entryOf, sortEntries, type ReportEntry, type SourceLocation } from "./report";
import { DEFAULT_RUN_BYTES, SortedSpill } from "./spill";

export interface BuildOptions {
  /** A directory of .json files, one .json file, or one .ndjson file. */
  input: string;
  /** Releases are written to `<outDir>/<hex>/`. */
  outDir: string;
  partBytes?: number;
  /** Largest page of the release index (default 16 KiB; tests use small pages to get many). */
  indexPageBytes?: number;
  /** Default: `namespace` of data/catalog.config.json. */
  namespace?: string;
  onProgress?: (progress: BuildProgress) => void;
  /** Bytes of profiles sorted in memory before spilling a run to disk. */
  runBytes?: number;
  /** Worker threads for pass 1; 0 checks on the calling thread. Default: one per core. */
  threads?: number;
}

export interface BuildProgress {
  phase: "validate" | "write" | "hash";
  done: number;
  total: number;
  /** While validating: the profiles read so far. */
  profiles?: number;
}

export interface BuildResult {
  releaseDir: string;
  manifest: Manifest;
  /** True when `<outDir>/<hex>` already held this exact release. */
  unchanged: boolean;
}

/** The input broke rules; nothing was written. `problems` is the whole report. */
export class BuildFailed extends Error {
  constructor(readonly problems: ReportEntry[]) {
    super(`${problems.length} violation${problems.length === 1 ? "" : "s"}; nothing was written`);
  }
}

const noProgress = () => {};
const EMPTY = Buffer.alloc(0);

/**
 * Worker threads for parse + validate + canonicalize: one per core (the main thread mostly waits on
 * I/O), except for small inputs, where starting workers costs more than it saves.
 */
const defaultThreads = (inputBytes: number) => (inputBytes < 8 * 1024 * 1024 ? 0 : availableParallelism());

export async function buildCatalog(options: BuildOptions): Promise<BuildResult> {
  const partBytes = options.partBytes ?? DEFAULT_PART_BYTES;
  if (!Number.isSafeInteger(partBytes) || partBytes < 1)
    throw new UsageError(`--part-bytes must be a whole number ≥ 1, got ${partBytes}`);
  const indexPageBytes = options.indexPageBytes ?? DEFAULT_INDEX_PAGE_BYTES;
  // The worker reads an index page whole: keep pages small.
  if (!Number.isSafeInteger(indexPageBytes) || indexPageBytes < 1 || indexPageBytes > 1 << 20)
    throw new UsageError(`indexPageBytes must be from 1 to 1048576, got ${indexPageBytes}`);
  const apiContract = apiContractOf(options.namespace ?? readNamespace());
  if (!API_CONTRACT_PATTERN.test(apiContract))
    throw new UsageError(
      `namespace must be lowercase letters, digits, dots or hyphens; "${apiContract}" is not a valid api_contract`,
    );
  const plan = planInput(options.input);
  const outDir = path.resolve(options.outDir);
  if (existsSync(outDir) && !statSync(outDir).isDirectory())
    throw new UsageError(`--out ${options.outDir}: exists and is not a directory`);
  mkdirSync(path.dirname(outDir), { recursive: true });
  removeAbandonedBuilds(path.dirname(outDir));
  const temp = mkdtempSync(path.join(path.dirname(outDir), `${TEMP_PREFIX}${process.pid}-`));
  const removeTemp = () => rmSync(temp, { recursive: true, force: true });
  // Ctrl-C or a kill mid-build must not leave a gigabyte of runs and parts beside --out: remove
  // them, then let the signal do what it would have done.
  const onSignal = (signal: NodeJS.Signals) => {
    removeTemp();
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  try {
    mkdirSync(path.join(temp, "runs"));
    mkdirSync(path.join(temp, "release", "parts"), { recursive: true });
    return await buildInto(temp, { ...options, partBytes, indexPageBytes, apiContract, outDir, plan });
  } finally {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
    removeTemp();
  }
}

const TEMP_PREFIX = ".catalog-build-";

/**
 * Temporary directories of builds whose process is gone (killed with SIGKILL, a crash, a power
 * cut) are removed by the next build in the same place; a running build's are left alone.
 */
function removeAbandonedBuilds(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = Number(/^\.catalog-build-(\d+)-/.exec(name)?.[1]);
    if (pid && !processExists(pid)) rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: a liveness check, nothing is sent
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface Resolved extends BuildOptions {
  partBytes: number;
  indexPageBytes: number;
  apiContract: string;
  outDir: string;
  plan: ReturnType<typeof planInput>;
}

async function buildInto(temp: string, options: Resolved): Promise<BuildResult> {
  const { plan, partBytes, apiContract } = options;
  const onProgress = options.onProgress ?? noProgress;
  const problems: ReportEntry[] = [...plan.problems];
  const tally = new CatalogTally();
  const spill = new SortedSpill(path.join(temp, "runs"), options.runBytes ?? DEFAULT_RUN_BYTES, plan.bytes);
  let profiles = 0;
  let read = 0;
  const pool = new CheckPool(options.threads ?? defaultThreads(plan.bytes), temp);
  try {
    for await (const batch of checkInOrder(pool, plan.batches())) {
      const bodies = Buffer.from(batch.bodies.buffer, batch.bodies.byteOffset, batch.bodies.byteLength);
      for (const checked of batch.profiles) {
        profiles++;
        problems.push(...checked.problems);
        if (!checked.entry) continue;
        tally.observe(checked.entry);
        // Once the build has failed, only the catalog-wide checks still need the records.
        const body =
          checked.body && problems.length === 0 ? bodies.subarray(checked.body.start, checked.body.end) : EMPTY;
        spill.add({ entry: checked.entry, location: checked.location, body, sha256: checked.sha256 ?? "" });
      }
      read += batch.inputBytes;
      onProgress({ phase: "validate", done: read, total: plan.bytes, profiles });
    }
  } finally {
    await pool.close();
  }
  if (profiles === 0 && problems.length === 0) {
    problems.push(
      entryOf(
        {
          rule: "input",
          path: "",
          message: "the input holds no profiles",
          expected: "at least one profile",
          found: "none",
        },
        { file: options.input },
      ),
    );
  }

  // Passes 2 and 3: catalog order (catalog-wide checks), straight into the part files.
  const order = new CatalogOrderCheck<CatalogEntry & { location: SourceLocation }>(tally);
  const index = new ReleaseIndexBuilder(path.join(temp, "release"), path.join(temp, "runs"), options.indexPageBytes);
  const document = await assembleDocument(spill.sorted(), {
    partsDir: path.join(temp, "release", "parts"),
    partBytes,
    apiContract,
    profileCount: profiles,
    onRecord: (record) => {
      for (const { entry, ...violation } of order.check({ ...record.entry, location: record.location }))
        problems.push(entryOf(violation, entry.location, entry.id));
      return problems.length === 0;
    },
    onWritten: ({ entry, body, sha256 }, offset) =>
      index.add({
        productKey: entry.productKey,
        funnelKey: entry.funnelKey,
        id: entry.id,
        offset,
        length: body.length,
        sha256,
      }),
    onProgress: (phase, done, total) => onProgress({ phase, done, total }),
  });
  for (const { entry, ...violation } of order.finish()) problems.push(entryOf(violation, entry.location, entry.id));
  if (problems.length || !document) throw new BuildFailed(sortEntries(problems));
  const manifest: Manifest = { ...document, index: index.finish() };
  writeManifest(path.join(temp, "release"), manifest);
  return moveIntoPlace(path.join(temp, "release"), options.outDir, manifest);
}

/** Renames the finished release to `<outDir>/<hex>`; an identical earlier build is kept as it is. */
function moveIntoPlace(releaseTemp: string, outDir: string, manifest: Manifest): BuildResult {
  const releaseDir = path.join(outDir, manifest.release_id.slice("sha256:".length));
  mkdirSync(outDir, { recursive: true });
  const built = readFileSync(path.join(releaseTemp, "manifest.json"));
  const existing = path.join(releaseDir, "manifest.json");
  if (existsSync(existing) && readFileSync(existing).equals(built)) return { releaseDir, manifest, unchanged: true };
  rmSync(releaseDir, { recursive: true, force: true });
  renameSync(releaseTemp, releaseDir);
  return { releaseDir, manifest, unchanged: false };
}
