/**
 * The isolate's usage counter (docs/usage.md "How counting works"). A request's counts go into the
 * isolate's tally; no storage is touched on its way. The first request that finds no write
 * scheduled schedules one, in its own `waitUntil`: it waits BATCH_DELAY_MS, takes everything
 * counted by then (its own and every later request's) and writes it to D1 in one batch. So:
 * - one write per isolate per BATCH_DELAY_MS at most, whatever the request rate;
 * - a count is in memory only while a scheduled write that will take it is running in a request's
 *   `waitUntil`, which the runtime lets finish before it evicts the isolate: an evicted isolate
 *   loses nothing (test/worker/usage.counting.test.ts);
 * - a failed write is retried under the same batch id, which the batch's transaction records: a
 *   retry of a write that had committed is rolled back, never counted twice. After the last retry
 *   (within 30 s, the `waitUntil` budget) the batch goes back to the tally for the next request's
 *   write, and the failure is logged.
 */
import { UsageTally, type UsageBatch, type UsageEntry } from "./usage-tally";
import { writeUsageBatch } from "./usage-writes";

/** Waited before a write, so that one write carries every request of that time (USAGE_BATCH_MS overrides it). */
export const BATCH_DELAY_MS = 1_000;
/** Waits between the tries of one write: 5 tries within 15.5 s. */
const RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000];
/** Old hours, days and batch ids are deleted with the first write of an isolate and then hourly. */
const PRUNE_EVERY_MS = 3_600_000;

/** Where and when the counts go: the deployment's D1, the request's `waitUntil`. */
export interface UsageSink {
  db: D1Database;
  waitUntil: (work: Promise<unknown>) => void;
  delayMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class UsageMeter {
  readonly #tally = new UsageTally();
  #scheduled = false;
  #prunedAt = Number.NEGATIVE_INFINITY;

  /** Counts one answered request; the write that takes it runs in `waitUntil` of this or an earlier request. */
  count(entry: UsageEntry, sink: UsageSink): void {
    this.#tally.add(entry);
    if (this.#scheduled) return;
    this.#scheduled = true;
    sink.waitUntil(this.#writeSoon(sink.db, sink.delayMs ?? BATCH_DELAY_MS));
  }

  async #writeSoon(db: D1Database, delayMs: number): Promise<void> {
    await sleep(delayMs);
    this.#scheduled = false;
    const batches: UsageBatch[] = [];
    while (!this.#tally.empty) batches.push(this.#tally.take());
    for (const batch of batches) await this.#write(db, batch);
  }

  async #write(db: D1Database, batch: UsageBatch): Promise<void> {
    const id = crypto.randomUUID();
    for (let attempt = 0; ; attempt++) {
      const now = Date.now();
      const prune = now - this.#prunedAt > PRUNE_EVERY_MS;
      try {
        await writeUsageBatch(db, id, batch, { now, prune });
        if (prune) this.#prunedAt = now;
        return;
      } catch (error) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) return this.#giveBack(batch, error);
        await sleep(delay);
      }
    }
  }

  /** Kept for the next request's write (usage then lags, but is not lost while the isolate lives). */
  #giveBack(batch: UsageBatch, error: unknown): void {
    this.#tally.putBack(batch);
    console.error(
      JSON.stringify({
        level: "error",
        message: "usage write failed",
        counts: batch.counts.length,
        error: String(error),
      }),
    );
  }
}
