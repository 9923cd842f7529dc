/**
 * An external sort of canonical profiles into catalog order (product key, funnel key, profile id):
 * records gather in memory up to `runBytes`, each full batch is sorted and spilled to a run file,
 * and the runs are merged at the end. Memory stays at about one run, whatever the catalog size.
 */
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import path from "node:path";
import type { CatalogEntry } from "../../src/catalog/validation-catalog";
import type { SourceLocation } from "./report";

export interface SpillRecord {
  entry: CatalogEntry;
  location: SourceLocation;
  /** The profile's RFC 8785 bytes. */
  body: Buffer;
}

/** 8 MiB: the memory it saves over 16 MiB pays for the check workers' larger young generation. */
export const DEFAULT_RUN_BYTES = 8 * 1024 * 1024;

function compareRecords(a: SpillRecord, b: SpillRecord): number {
  const x = a.entry;
  const y = b.entry;
  if (x.productKey !== y.productKey) return x.productKey < y.productKey ? -1 : 1;
  if (x.funnelKey !== y.funnelKey) return x.funnelKey < y.funnelKey ? -1 : 1;
  if (x.id !== y.id) return x.id < y.id ? -1 : 1;
  return x.where < y.where ? -1 : x.where > y.where ? 1 : 0;
}

export class SortedSpill {
  private batch: SpillRecord[] = [];
  private batchBytes = 0;
  private readonly runs: string[] = [];

  constructor(
    private readonly dir: string,
    private readonly runBytes = DEFAULT_RUN_BYTES,
  ) {}

  add(record: SpillRecord): void {
    this.batch.push(record);
    this.batchBytes += record.body.length + 200;
    if (this.batchBytes >= this.runBytes) this.spill();
  }

  /** All records in catalog order; a record's body is valid until the next record is taken. */
  *sorted(): Generator<SpillRecord> {
    if (this.runs.length === 0) {
      yield* this.batch.sort(compareRecords);
      return;
    }
    if (this.batch.length) this.spill();
    // The merge reads every run at once: share a fixed budget between them so memory stays flat.
    const bufferBytes = Math.max(64 * 1024, Math.min(CHUNK, Math.floor(MERGE_BUFFER_BUDGET / this.runs.length)));
    yield* mergeRuns(this.runs.map((file) => readRun(file, bufferBytes)));
  }

  private spill(): void {
    const file = path.join(this.dir, `run-${this.runs.length}`);
    writeRun(file, this.batch.sort(compareRecords));
    this.runs.push(file);
    this.batch = [];
    this.batchBytes = 0;
  }
}

/** Run file: per record, u32 head length, u32 body length, head (JSON of the entry), body. */
function writeRun(file: string, records: SpillRecord[]): void {
  const fd = openSync(file, "w");
  const out = new ChunkedWriter(fd);
  for (const { entry, location, body } of records) out.writeRecord(JSON.stringify([entry, location]), body);
  out.flush();
  closeSync(fd);
}

function* readRun(file: string, bufferBytes: number): Generator<SpillRecord> {
  const fd = openSync(file, "r");
  const reader = new ChunkedReader(fd, bufferBytes);
  try {
    for (let lengths = reader.read(8); lengths; lengths = reader.read(8)) {
      const headLength = lengths.readUInt32LE(0);
      const bodyLength = lengths.readUInt32LE(4);
      const [entry, location] = JSON.parse(reader.read(headLength)!.toString("utf8")) as [CatalogEntry, SourceLocation];
      // A view into the reader's buffer: valid until this run is read again, which the merge does
      // only after the record was consumed.
      const body = reader.read(bodyLength)!;
      yield { entry, location, body };
    }
  } finally {
    closeSync(fd);
  }
}

/** k-way merge with a binary min-heap of the runs' current records. */
function* mergeRuns(runs: Generator<SpillRecord>[]): Generator<SpillRecord> {
  const heap: { record: SpillRecord; run: Generator<SpillRecord> }[] = [];
  const less = (i: number, j: number) => compareRecords(heap[i]!.record, heap[j]!.record) < 0;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(l, m)) m = l;
      if (r < heap.length && less(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (const run of runs) {
    const first = run.next();
    if (!first.done) heap.push({ record: first.value, run });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length) {
    const top = heap[0]!;
    yield top.record;
    const next = top.run.next();
    if (next.done) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    } else top.record = next.value;
    if (heap.length) down(0);
  }
}

const CHUNK = 1 << 20;
const MERGE_BUFFER_BUDGET = 8 * CHUNK;

/** Coalesces small writes into 1 MiB writes. */
class ChunkedWriter {
  private readonly buffer = Buffer.allocUnsafe(CHUNK);
  private used = 0;

  constructor(
    private readonly fd: number,
    private position: number | null = null,
  ) {}

  write(bytes: Uint8Array): void {
    if (this.used + bytes.length > CHUNK) this.flush();
    if (bytes.length > CHUNK) return this.writeOut(bytes);
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** u32 head length, u32 body length, head (UTF-8), body: written in place, no per-record buffers. */
  writeRecord(head: string, body: Uint8Array): void {
    const headLength = Buffer.byteLength(head);
    if (this.used + 8 + headLength > CHUNK) this.flush();
    this.buffer.writeUInt32LE(headLength, this.used);
    this.buffer.writeUInt32LE(body.length, this.used + 4);
    this.used += 8;
    if (this.used + headLength <= CHUNK) this.used += this.buffer.write(head, this.used);
    else this.write(Buffer.from(head)); // a head longer than a chunk (a file path of a megabyte)
    this.write(body);
  }

  flush(): void {
    if (this.used) this.writeOut(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private writeOut(bytes: Uint8Array): void {
    for (let done = 0; done < bytes.length; ) {
      const n = writeSync(this.fd, bytes, done, bytes.length - done, this.position);
      done += n;
      if (this.position !== null) this.position += n;
    }
  }
}

/** Reads exact byte counts from a file through one fixed buffer (grown only for a larger record). */
class ChunkedReader {
  private buffer: Buffer;
  private start = 0;
  private end = 0;

  constructor(
    private readonly fd: number,
    size: number,
  ) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  /** `n` bytes (a view, valid until the next call), or undefined at end of file. */
  read(n: number): Buffer | undefined {
    if (this.end - this.start < n) this.refill(n);
    if (this.end - this.start < n) return undefined;
    const view = this.buffer.subarray(this.start, this.start + n);
    this.start += n;
    return view;
  }

  private refill(n: number): void {
    if (n > this.buffer.length) {
      const larger = Buffer.allocUnsafe(n);
      this.buffer.copy(larger, 0, this.start, this.end);
      this.buffer = larger;
    } else this.buffer.copyWithin(0, this.start, this.end);
    this.end -= this.start;
    this.start = 0;
    for (let got = -1; got !== 0 && this.end < this.buffer.length; ) {
      got = readSync(this.fd, this.buffer, this.end, this.buffer.length - this.end, null);
      this.end += got;
    }
  }
}
