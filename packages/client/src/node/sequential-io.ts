/**
 * The file I/O of sync's rebuild: the old document read in large sequential chunks, one chunk
 * ahead, and the new one written in large sequential writes, one in flight, each byte fed to the
 * document's digests as it is queued. Slices are handed on, not copied: sync's time is this loop
 * (bench "sync", docs/performance.md).
 */
import type { FileHandle } from "node:fs/promises";
import type { DocumentCheck } from "../document-check.js";
import { CatalogVerificationError } from "../errors.js";

/** Bytes per read and per write: few system calls, and a read ahead that stays in memory. */
const CHUNK_BYTES = 8 * 1024 * 1024;

interface Chunk {
  start: number;
  bytes: Uint8Array;
}

/** Reads `[from, end)` of a file in order, `slices(start, end)` at a time with increasing `start`. */
export class SequentialReader {
  private current: Chunk = { start: 0, bytes: new Uint8Array(0) };
  private ahead: Promise<Chunk> | undefined;

  constructor(
    private readonly file: FileHandle,
    private readonly from: number,
    private readonly end: number,
    private readonly chunkBytes = CHUNK_BYTES,
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
    this.current = ahead?.start === start ? ahead : await this.read(start);
    const next = start + this.chunkBytes;
    this.ahead = next < this.end ? this.read(next) : undefined;
    // Marked handled: a sync that stops before it is needed must not fail the process with it.
    this.ahead?.catch(() => {});
  }

  private async read(start: number): Promise<Chunk> {
    if (start < this.from || start >= this.end)
      throw new CatalogVerificationError("the change list names bytes outside the local copy");
    // A fresh buffer per chunk: the slices handed out stay valid until they are written and hashed.
    // Shared, so the hashing thread reads them without a copy (worker-sha256.ts).
    const bytes = new Uint8Array(new SharedArrayBuffer(Math.min(this.chunkBytes, this.end - start)));
    const { bytesRead } = await this.file.read(bytes, 0, bytes.length, start);
    if (bytesRead !== bytes.length) throw new CatalogVerificationError("the local copy ended early");
    return { start, bytes };
  }
}

/** Writes a document from its start in order, every byte checked first; `finish` checks the digests. */
export class CheckedWriter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Where the pending bytes go. */
  private position = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: FileHandle,
    private readonly check: DocumentCheck,
    private readonly chunkBytes = CHUNK_BYTES,
  ) {}

  /** Queues `bytes` (not copied: they must not change until `finish`) after those queued before. */
  async write(bytes: Uint8Array): Promise<void> {
    if (!bytes.length) return;
    await this.check.add(bytes, this.position + this.pendingBytes);
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= this.chunkBytes) await this.flush();
  }

  async finish(): Promise<void> {
    await this.flush();
    await this.writing;
    await this.check.finish();
  }

  /** Waits for the write in flight, then starts writing what is pending. */
  private async flush(): Promise<void> {
    await this.writing;
    if (!this.pendingBytes) return;
    const [buffers, at] = [this.pending, this.position];
    this.position += this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    this.writing = writeAll(this.file, buffers, at);
    // Marked handled here; `flush` and `finish` await it and see its failure.
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
