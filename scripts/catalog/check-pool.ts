/**
 * Runs `checkBatch` on worker threads (parse + validate + canonicalize is the build's CPU-heavy
 * part) and hands results back in submission order, so reports and output stay deterministic.
 * With `threads: 0` the batches are checked inline on the calling thread.
 */
import { Worker } from "node:worker_threads";
import type { InputUnit } from "./profile-check";
import { checkBatch, type BatchResult, type CheckRequest } from "./check-batch";

const BOOT = new URL("./check-worker-boot.mjs", import.meta.url);

export class CheckPool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (r: BatchResult) => void; reject: (e: Error) => void }>();
  private nextId = 0;

  constructor(threads: number) {
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(BOOT);
      worker.on("message", ({ id, result }: { id: number; result: BatchResult }) => {
        this.waiting.get(id)?.resolve(result);
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
    if (!worker) return Promise.resolve().then(() => checkBatch(units));
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const request: CheckRequest = { id, units };
      const transfer = [...new Set(units.flatMap((u) => (u.kind === "lines" ? [u.bytes.buffer as ArrayBuffer] : [])))];
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
    if (inFlight.length >= pool.depth) yield await inFlight.shift()!;
  }
  while (inFlight.length) yield await inFlight.shift()!;
}
