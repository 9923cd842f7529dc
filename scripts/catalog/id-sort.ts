/**
 * An external sort of the id index's entries, which arrive in scope order: entries gather as
 * fixed-size binary records up to `runBytes`, each full batch is sorted and written to a run file,
 * and the runs are merged at the end, so memory stays at about one run whatever the catalog size.
 *
 * Records, not strings: 100k entries kept as line strings until the sort cost the merge's thread
 * ~0.3 s of CPU at 100k profiles (most of it garbage collection of the strings it had to keep);
 * records in one buffer cost it none. Record: the id (`arp_` + 26 characters, ASCII), the offset
 * (float64), the length (uint32), the SHA-256 (32 bytes). Order: the id's, plain string order.
 */
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import path from "node:path";
import type { IndexedProfile } from "../../src/catalog/profile-index";

const ID = 30;
const RECORD = ID + 8 + 4 + 32;
export const DEFAULT_ID_RUN_BYTES = 8 * 1024 * 1024;

export class IdSort {
  private readonly batch: Buffer;
  private readonly keys: Float64Array;
  private count = 0;
  private readonly runs: string[] = [];

  constructor(
    private readonly dir: string,
    runBytes = DEFAULT_ID_RUN_BYTES,
  ) {
    const capacity = Math.max(2, Math.floor(runBytes / RECORD));
    this.batch = Buffer.allocUnsafe(capacity * RECORD);
    this.keys = new Float64Array(capacity);
  }

  /** An entry whose id is `arp_` and 26 lowercase letters or digits (the schema's format). */
  add(entry: IndexedProfile): void {
    if (entry.id.length !== ID) throw new Error(`profile id ${JSON.stringify(entry.id)} is not ${ID} characters`);
    const at = this.count * RECORD;
    this.batch.write(entry.id, at, "latin1");
    this.batch.writeDoubleLE(entry.offset, at + ID);
    this.batch.writeUInt32LE(entry.length, at + ID + 8);
    this.batch.write(entry.sha256, at + ID + 12, "hex");
    // The first ten characters after arp_, as a number: they order almost every pair (see sortBy).
    this.keys[this.count] = parseInt(entry.id.slice(4, 14), 36);
    if (++this.count * RECORD === this.batch.length) this.spill();
  }

  *sorted(): Generator<IndexedProfile> {
    if (this.runs.length === 0) {
      for (const i of this.order()) yield recordAt(this.batch, i * RECORD);
      return;
    }
    if (this.count) this.spill();
    yield* mergeRuns(this.runs.map(readRun));
  }

  /** The batch's record numbers in id order. */
  private order(): Uint32Array {
    const order = new Uint32Array(this.count).map((_, i) => i);
    this.sortBy(order, 0, this.count, "arp_".length);
    return order;
  }

  /**
   * Sorts `order[from, to)`, whose ids agree before character `char`, by the ten characters from
   * `char` as a base-36 number (exact in a double), then each group that agrees on those too by the
   * next ten: ids that share a long prefix (arp_00000000000000000000000001, …) cost a pass more each.
   */
  private sortBy(order: Uint32Array, from: number, to: number, char: number): void {
    if (to - from < 2 || char >= ID) return;
    const { batch, keys } = this;
    const width = Math.min(10, ID - char);
    if (char > "arp_".length) {
      for (let i = from; i < to; i++) keys[order[i]!] = parseInt(batch.toString("latin1", order[i]! * RECORD + char, order[i]! * RECORD + char + width), 36);
    }
    order.subarray(from, to).sort((a, b) => keys[a]! - keys[b]!);
    for (let i = from; i < to; ) {
      let j = i + 1;
      while (j < to && keys[order[j]!] === keys[order[i]!]) j++;
      this.sortBy(order, i, j, char + width);
      i = j;
    }
  }

  private spill(): void {
    const sorted = Buffer.allocUnsafe(this.count * RECORD);
    this.order().forEach((record, i) => this.batch.copy(sorted, i * RECORD, record * RECORD, (record + 1) * RECORD));
    const file = path.join(this.dir, `id-run-${this.runs.length}`);
    const fd = openSync(file, "w");
    try {
      for (let done = 0; done < sorted.length; ) done += writeSync(fd, sorted, done, sorted.length - done);
    } finally {
      closeSync(fd);
    }
    this.runs.push(file);
    this.count = 0;
  }
}

function recordAt(buffer: Buffer, at: number): IndexedProfile {
  return {
    id: buffer.toString("latin1", at, at + ID),
    offset: buffer.readDoubleLE(at + ID),
    length: buffer.readUInt32LE(at + ID + 8),
    sha256: buffer.toString("hex", at + ID + 12, at + RECORD),
  };
}

/** A run's entries, read RECORDS_PER_READ records at a time. */
function* readRun(file: string): Generator<IndexedProfile> {
  const fd = openSync(file, "r");
  const buffer = Buffer.allocUnsafe(RECORDS_PER_READ * RECORD);
  try {
    for (let got; (got = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) {
      if (got % RECORD) throw new Error(`id sort run ${file} ends inside a record`);
      for (let at = 0; at < got; at += RECORD) yield recordAt(buffer, at);
    }
  } finally {
    closeSync(fd);
  }
}
const RECORDS_PER_READ = 4096;

/** k-way merge with a binary min-heap of the runs' current entries. */
function* mergeRuns(runs: Generator<IndexedProfile>[]): Generator<IndexedProfile> {
  const heap: { entry: IndexedProfile; run: Generator<IndexedProfile> }[] = [];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      let m = i;
      if (l < heap.length && heap[l]!.entry.id < heap[m]!.entry.id) m = l;
      if (l + 1 < heap.length && heap[l + 1]!.entry.id < heap[m]!.entry.id) m = l + 1;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const run of runs) {
    const first = run.next();
    if (!first.done) heap.push({ entry: first.value, run });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length) {
    const top = heap[0]!;
    yield top.entry;
    const next = top.run.next();
    if (next.done) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    } else top.entry = next.value;
    if (heap.length) down(0);
  }
}
