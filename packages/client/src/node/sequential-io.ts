/**
 * The file I/O of sync's rebuild: the old document read in large sequential chunks, one chunk
 * ahead, and the new one written in large sequential writes, one in flight, each byte fed to the
 * document's digests as it is queued. Slices are handed on, not copied, and the reader's few chunk
 * buffers are used again once the writer says their bytes are written and hashed: a fresh buffer
 * per chunk costs the kernel a page fault per 4 KiB (about a third of a 100k sync's CPU time).
 * Sync's time is this loop (bench "sync", docs/performance.md).
 */
import type { FileHandle } from "node:fs/promises";
import type { DocumentCheck } from "../document-check.js";
import { CatalogVerificationError } from "../errors.js";

/** Bytes per read and per write: few system calls, and a read ahead that stays in memory. */
const CHUNK_BYTES = 8 * 1024 * 1024;
/** Chunk buffers a reader uses again: the current one, the one read ahead, two in the writer. */
const POOLED_CHUNKS = 4;

interface Chunk {
  start: number;
  bytes: Uint8Array;
}

/** Where the slices a reader hands out go: the writer, which knows when their bytes are done with. */
export interface SliceSink {
  /** Bytes handed to it so far. */
  readonly handed: number;
  /** Resolves once the first `bytes` bytes handed to it are written and hashed. */
  released(bytes: number): Promise<void>;
}

/** Reads `[from, end)` of a file in order, `slices(start, end)` at a time with increasing `start`. */
export class SequentialReader {
  private current: Chunk = { start: 0, bytes: new Uint8Array(0) };
  private ahead: Promise<Chunk> | undefined;
  /** Buffers read and handed on, oldest first, each free again once the sink has released `until` bytes. */
  private readonly retired: { buffer: Uint8Array; until: number }[] = [];
  private allocated = 0;

  /** With a `sink`, at most POOLED_CHUNKS buffers, used again; without, a fresh buffer per chunk. */
  constructor(
    private readonly file: FileHandle,
    private readonly from: number,
    private readonly end: number,
    private readonly chunkBytes = CHUNK_BYTES,
    private readonly sink?: SliceSink,
  ) {}

  /** The bytes `[start, end)`, as one slice or, across chunks, several. */
  async *slices(start: number, end: number): AsyncGenerator<Uint8Array> {
    let at = start;
    while (at < end) {
      if (at < this.current.start || at >= this.current.start + this.current.bytes.length) await this.load(at);
      const offset = at - this.current.start;
      const take = Math.min(end - at, this.current.bytes.length - offset);
      yield this.current.bytes.subarray(offset, offset + take);
      at += take;
    }
  }

  /** Makes the chunk that holds `at` current and starts reading the one after it. */
  private async load(at: number): Promise<void> {
    const index = Math.floor((at - this.from) / this.chunkBytes);
    const start = this.from + index * this.chunkBytes;
    const ahead = await this.ahead;
    // Every slice of the current chunk went to the sink before this call: its buffer is free once
    // the sink releases what it was handed so far.
    this.retire(this.current.bytes);
    if (ahead && ahead.start !== start) this.retire(ahead.bytes);
    this.current = ahead?.start === start ? ahead : await this.read(start);
    const next = start + this.chunkBytes;
    this.ahead = next < this.end ? this.read(next) : undefined;
    // Marked handled: a sync that stops before it is needed must not fail the process with it.
    this.ahead?.catch(() => {});
  }

  private async read(start: number): Promise<Chunk> {
    if (start < this.from || start >= this.end)
      throw new CatalogVerificationError("the change list names bytes outside the local copy");
    const bytes = (await this.buffer()).subarray(0, Math.min(this.chunkBytes, this.end - start));
    const { bytesRead } = await this.file.read(bytes, 0, bytes.length, start);
    if (bytesRead !== bytes.length) throw new CatalogVerificationError("the local copy ended early");
    return { start, bytes };
  }

  /**
   * A buffer to read a chunk into whose earlier bytes no one needs any more. Shared, so the hashing
   * thread reads the slices without a copy (worker-sha256.ts).
   */
  private async buffer(): Promise<Uint8Array> {
    const fresh = () => new Uint8Array(new SharedArrayBuffer(this.chunkBytes));
    if (!this.sink) return fresh();
    if (this.allocated < POOLED_CHUNKS) {
      this.allocated++;
      return fresh();
    }
    const oldest = this.retired.shift();
    if (!oldest) throw new Error(`all ${POOLED_CHUNKS} chunk buffers are in use by the reader`);
    await this.sink.released(oldest.until);
    return oldest.buffer;
  }

  private retire(bytes: Uint8Array): void {
    if (!this.sink || !bytes.length) return;
    const buffer = new Uint8Array(bytes.buffer, 0, this.chunkBytes);
    this.retired.push({ buffer, until: this.sink.handed });
  }
}

/**
 * Writes a document from its start in order, every byte checked first; `finish` checks the digests.
 * A SliceSink: `released` says when bytes handed to it are written and hashed (`hashed`: the
 * digest that reads them on another thread; DocumentCheck's own digest reads them at once).
 */
export class CheckedWriter implements SliceSink {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Where the pending bytes go: the bytes given to writes so far. */
  private position = 0;
  /** The last write: writes run one after the other, so it settles after every write before it. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: FileHandle,
    private readonly check: DocumentCheck,
    private readonly chunkBytes = CHUNK_BYTES,
    private readonly hashed?: (bytes: number) => Promise<void>,
  ) {}

  get handed(): number {
    return this.position + this.pendingBytes;
  }

  /** Queues `bytes` (not copied: they must not change until `released` says so) after those queued before. */
  async write(bytes: Uint8Array): Promise<void> {
    if (!bytes.length) return;
    await this.check.add(bytes, this.handed);
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= this.chunkBytes) {
      // One write in flight while the next chunk is gathered.
      const previous = this.writing;
      this.startWrite();
      await previous;
    }
  }

  async released(bytes: number): Promise<void> {
    if (bytes > this.position) this.startWrite();
    await this.writing;
    await this.hashed?.(bytes);
  }

  async finish(): Promise<void> {
    this.startWrite();
    await this.writing;
    await this.check.finish();
  }

  /** Starts writing what is pending, after the writes before it. */
  private startWrite(): void {
    if (!this.pendingBytes) return;
    const [buffers, at] = [this.pending, this.position];
    this.position += this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    this.writing = this.writing.then(() => writeAll(this.file, buffers, at));
    // Marked handled here; `write`, `released` and `finish` await it and see its failure.
    this.writing.catch(() => {});
  }
}

async function writeAll(file: FileHandle, buffers: Uint8Array[], position: number): Promise<void> {
  const total = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
  const { bytesWritten } = await file.writev(buffers, position);
  if (bytesWritten === total) return;
  // A short write (rare for a file): the rest in one buffer.
  const rest = Buffer.concat(buffers).subarray(bytesWritten);
  for (let done = 0; done < rest.length; ) {
    const { bytesWritten: more } = await file.write(rest, done, rest.length - done, position + bytesWritten + done);
    done += more;
  }
}
