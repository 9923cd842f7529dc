/**
 * Runs `checkBatch` on worker threads (parse + validate + canonicalize is the build's CPU-heavy
 * part) and hands results back in submission order, so reports and output stay deterministic.
 * With `threads: 0` the batches are checked inline on the calling thread.
 */
import { buildSync } from "esbuild";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { expectDefined } from "../../../common/expect";
import { freshBundle, keepBundle } from "./bundle-cache";
import type { InputUnit } from "./profile-check";
import { checkBatch, unitBytes, type BatchResult, type CheckRequest, type WireResult } from "./check-batch";

/**
 * Small heaps keep each worker near its live data (a batch of ~1 MiB): V8's defaults let a worker
 * grow by ~100 MiB of garbage first. Measured on 100k profiles: peak RSS 375 → 298 MiB, no slower.
 * Since the fast path builds key-sorted copies instead of strings (profile-canonical.ts), a worker
 * allocates less per profile but keeps more across a batch: a 16 MiB young generation and a 40 MiB
 * old one (24 and 32 before) made the 100k build 0.4–0.5 s faster (median of 6 runs each, 4.3 s
 * against 4.8 s), with fewer full collections, and kept the 200k build under 300 MiB (277–280;
 * a 64 MiB old generation reached 305). A unit too big for such a heap (a large .json file or
 * ndjson line; over 2 MiB) is checked inline instead.
 */
const WORKER_HEAP = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 40 };
const INLINE_UNIT_BYTES = 2 * 1024 * 1024;

const WORKER_SOURCE = fileURLToPath(new URL("./check-worker.ts", import.meta.url));

/**
 * The worker as one plain JavaScript file, run with no TypeScript loader: a worker started with the
 * parent's execArgv loads `--import tsx` too, which cost the 5k-profile build ~0.2 s of start-up
 * (0.91–1.01 s against 0.74–0.80 s with `execArgv: []`) and the 100k build ~10 MiB. Bundling takes
 * ~0.15 s, so the bundle is kept in node_modules/.cache (src/node/catalog/build/bundle-cache.ts: with the size
 * and mtime of every file that went into it) and used again while none of them changed. Without a
 * writable cache it is bundled into the build's scratch directory each time.
 */
const CACHE_DIR = fileURLToPath(new URL("../../../../node_modules/.cache/catalog-build/", import.meta.url));
const BUNDLE_NAME = "check-worker";

export function workerScript(scratchDir: string, cacheDir = CACHE_DIR, now = Date.now): string {
  const cached = freshBundle(cacheDir, BUNDLE_NAME, WORKER_SOURCE);
  if (cached) return cached;
  const started = now();
  const { outputFiles, metafile } = buildSync({
    entryPoints: [WORKER_SOURCE],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    mainFields: ["module", "main"],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const code = expectDefined(outputFiles[0], "esbuild's output file for the one entry point").contents;
  try {
    return keepBundle(cacheDir, BUNDLE_NAME, WORKER_SOURCE, code, Object.keys(metafile.inputs), started);
  } catch {
    const file = path.join(scratchDir, `${BUNDLE_NAME}.mjs`);
    writeFileSync(file, code);
    return file;
  }
}

export class CheckPool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (r: BatchResult) => void; reject: (e: Error) => void }>();
  private nextId = 0;

  /** `scratchDir` receives the bundled worker script when node_modules/.cache cannot. */
  constructor(threads: number, scratchDir: string) {
    const script = threads > 0 ? workerScript(scratchDir) : "";
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(script, { resourceLimits: WORKER_HEAP, execArgv: [] });
      worker.on("message", ({ id, result }: { id: number; result: WireResult }) => {
        this.waiting.get(id)?.resolve({ ...result, profiles: JSON.parse(result.profiles) as BatchResult["profiles"] });
        this.waiting.delete(id);
      });
      worker.on("error", (error) => this.failAll(error));
      worker.on("exit", (code) => code !== 0 && this.failAll(new Error(`a check worker exited with code ${code}`)));
      this.workers.push(worker);
    }
  }

  /** Most batches in flight at once: enough to keep every worker busy. */
  get depth(): number {
    return Math.max(1, this.workers.length * 2);
  }

  check(units: InputUnit[]): Promise<BatchResult> {
    const id = this.nextId++;
    const worker = this.workers[id % Math.max(1, this.workers.length)];
    if (!worker || units.some((unit) => unitBytes(unit) > INLINE_UNIT_BYTES))
      return Promise.resolve().then(() => checkBatch(units));
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const request: CheckRequest = { id, units };
      const transfer = [
        ...new Set(
          units.flatMap((u) => (u.kind === "lines" || u.kind === "elements" ? [u.bytes.buffer as ArrayBuffer] : [])),
        ),
      ];
      worker.postMessage(request, transfer);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private failAll(error: Error): void {
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }
}

/** Checks batches with at most `pool.depth` in flight; yields results in input order. */
export async function* checkInOrder(pool: CheckPool, batches: AsyncIterable<InputUnit[]>): AsyncGenerator<BatchResult> {
  const inFlight: Promise<BatchResult>[] = [];
  for await (const batch of batches) {
    const result = pool.check(batch);
    result.catch(() => {}); // awaited below, in order; this only keeps an early failure from going unhandled
    inFlight.push(result);
    const oldest = inFlight.length >= pool.depth ? inFlight.shift() : undefined;
    if (oldest) yield await oldest;
  }
  for (let oldest = inFlight.shift(); oldest; oldest = inFlight.shift()) yield await oldest;
}
