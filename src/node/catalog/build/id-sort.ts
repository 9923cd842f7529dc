/**
 * An external sort of the id index's lines, which arrive in scope order: each line is kept as
 * bytes in a fixed-size slot of one buffer up to `runBytes`, each full batch is sorted and written
 * to a run file, and the runs are merged at the end, so memory stays at about one run whatever
 * the catalog size. The sorted lines come back as bytes, which the index writer copies as they are.
 *
 * Bytes, not strings: 100k lines kept as strings until the sort cost the merge's thread ~0.3 s
 * more CPU at 100k profiles (most of it garbage collection of the strings it had to keep), and
 * turning records back into lines after the sort ~0.2 s more; this costs neither. Order: the
 * line's, which is the id's (a space, below any id character, ends the id).
 */
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import path from "node:path";
import { expectDefined } from "../../../common/expect";
import { idLine, type IndexedProfile } from "../../../common/catalog/profile-index";
import { mergeSorted } from "./merge-sorted";

/** A slot: the line's length (one byte), then the line (at most 30 + 16 + 10 + 64 + 4 = 124 bytes). */
const SLOT = 128;
const ID = "arp_".length + 26;
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
    const capacity = Math.max(2, Math.floor(runBytes / SLOT));
    this.batch = Buffer.allocUnsafe(capacity * SLOT);
    this.keys = new Float64Array(capacity);
  }

  /** An entry whose id is `arp_` and 26 lowercase letters or digits (the schema's format). */
  add(entry: IndexedProfile): void {
    if (entry.id.length !== ID) throw new Error(`profile id ${JSON.stringify(entry.id)} is not ${ID} characters`);
    const at = this.count * SLOT;
    const line = idLine(entry);
    if (line.length >= SLOT) throw new Error(`id index line of ${line.length} bytes: ${line}`);
    this.batch[at] = this.batch.write(line, at + 1, "latin1");
    // The first ten characters after arp_, as a number: they order almost every pair (see sortBy).
    this.keys[this.count] = parseInt(entry.id.slice(4, 14), 36);
    if (++this.count * SLOT === this.batch.length) this.spill();
  }

  /** The lines in id order; each a view, valid until the next one is taken. */
  *sorted(): Generator<Buffer> {
    if (this.runs.length === 0) {
      for (const i of this.order()) yield lineAt(this.batch, i * SLOT);
      return;
    }
    if (this.count) this.spill();
    yield* mergeSorted(this.runs.map(readRun), Buffer.compare);
  }

  /** The batch's slot numbers in id order. */
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
    const keyAt = (i: number) => keyOf(keys, slotAt(order, i));
    if (char > "arp_".length) {
      for (const slot of order.subarray(from, to))
        keys[slot] = parseInt(batch.toString("latin1", slot * SLOT + 1 + char, slot * SLOT + 1 + char + width), 36);
    }
    order.subarray(from, to).sort((a, b) => keyOf(keys, a) - keyOf(keys, b));
    for (let i = from; i < to; ) {
      let j = i + 1;
      while (j < to && keyAt(j) === keyAt(i)) j++;
      this.sortBy(order, i, j, char + width);
      i = j;
    }
  }

  private spill(): void {
    const sorted = Buffer.allocUnsafe(this.count * SLOT);
    for (const [i, slot] of this.order().entries()) this.batch.copy(sorted, i * SLOT, slot * SLOT, (slot + 1) * SLOT);
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

const lineAt = (buffer: Buffer, at: number) => buffer.subarray(at + 1, at + 1 + buffer.readUInt8(at));
const slotAt = (order: Uint32Array, i: number) => expectDefined(order[i], "a slot number within the sorted range");
const keyOf = (keys: Float64Array, slot: number) => expectDefined(keys[slot], "a sort key for every slot of the batch");

/** A run's lines, read SLOTS_PER_READ slots at a time. */
function* readRun(file: string): Generator<Buffer> {
  const fd = openSync(file, "r");
  const buffer = Buffer.allocUnsafe(SLOTS_PER_READ * SLOT);
  try {
    for (
      let got = readSync(fd, buffer, 0, buffer.length, null);
      got > 0;
      got = readSync(fd, buffer, 0, buffer.length, null)
    ) {
      if (got % SLOT) throw new Error(`id sort run ${file} ends inside a slot`);
      for (let at = 0; at < got; at += SLOT) yield lineAt(buffer, at);
    }
  } finally {
    closeSync(fd);
  }
}
const SLOTS_PER_READ = 2048;
