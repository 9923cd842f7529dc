/**
 * Writes the document `prefix + JCS(data) + "}"` straight into its part files (docs/contract.md,
 * "Parts"). The prefix holds digests of the data, so the data is written first, after a gap of the
 * prefix's (fixed) length, and the prefix last. Then one read pass hashes every part and the whole.
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, constants, openSync, readSync, writeSync } from "node:fs";
import path from "node:path";
import { expectDefined } from "../../../common/expect";
import { asDigest } from "../../../common/catalog/digest";
import type { PartEntry } from "./manifest-file";

/** Bytes gathered before each write to the part files. */
export const CHUNK_BYTES = 1 << 20;

/**
 * Where the writer's chunk buffers come from, and where each goes once written (the hasher's ring):
 * a buffer handed to `written` is never touched again by the writer.
 */
export interface ChunkRing {
  next(): Buffer;
  written(offset: number, length: number): void;
}

export class PartFilesWriter {
  private buffer: Buffer | undefined;
  private used = 0;
  /** Document offset of the first byte in `buffer`. */
  private offset: number;
  private fd: number | undefined;
  private fdIndex = -1;

  constructor(
    private readonly partsDir: string,
    private readonly partBytes: number,
    startOffset: number,
    private readonly ring: ChunkRing,
  ) {
    this.offset = startOffset;
  }

  /** Appends at the cursor. */
  write(bytes: Uint8Array): void {
    for (let done = 0; done < bytes.length; ) {
      this.buffer ??= this.ring.next();
      if (this.used === this.buffer.length) {
        this.flush();
        continue;
      }
      const n = Math.min(bytes.length - done, this.buffer.length - this.used);
      this.buffer.set(bytes.subarray(done, done + n), this.used);
      this.used += n;
      done += n;
    }
  }

  /** Document size so far. */
  get size(): number {
    return this.offset + this.used;
  }

  flush(): void {
    if (!this.buffer || this.used === 0) return;
    this.writeAt(this.offset, this.buffer.subarray(0, this.used));
    this.ring.written(this.offset, this.used);
    this.offset += this.used;
    this.used = 0;
    this.buffer = undefined;
  }

  /** Writes bytes at a document offset, across as many parts as they span. */
  writeAt(offset: number, bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length) {
      const at = offset + done;
      const index = Math.floor(at / this.partBytes);
      const within = at - index * this.partBytes;
      const n = Math.min(bytes.length - done, this.partBytes - within);
      writeFully(this.partFd(index), bytes.subarray(done, done + n), within);
      done += n;
    }
  }

  close(): void {
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private partFd(index: number): number {
    if (index === this.fdIndex) return expectDefined(this.fd, `part ${index} open: written after close()?`);
    if (this.fd !== undefined) closeSync(this.fd);
    const fd = openSync(path.join(this.partsDir, String(index)), constants.O_RDWR | constants.O_CREAT);
    this.fd = fd;
    this.fdIndex = index;
    return fd;
  }
}

function writeFully(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

/**
 * SHA-256 of the whole document and of every part not in `known` (parts already hashed while they
 * were written), in one sequential read of the part files.
 */
export function hashDocument(
  partsDir: string,
  totalBytes: number,
  partBytes: number,
  known: Record<number, string>,
): { sha256: string; parts: PartEntry[] } {
  const whole = createHash("sha256");
  const parts: PartEntry[] = [];
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, partBytes));
  for (let index = 0, offset = 0; offset < totalBytes; index++, offset += partBytes) {
    const length = Math.min(partBytes, totalBytes - offset);
    const part = known[index] === undefined ? createHash("sha256") : undefined;
    const fd = openSync(path.join(partsDir, String(index)), "r");
    try {
      readExactly(fd, buffer, length, part ? [part, whole] : [whole]);
      if (readSync(fd, buffer, 0, 1, null) !== 0) throw new Error(`part ${index} is longer than ${length} bytes`);
    } finally {
      closeSync(fd);
    }
    const digest = expectDefined(part ? part.digest("hex") : known[index], `the digest of part ${index}`);
    parts.push({ index, offset, length, sha256: asDigest(digest) });
  }
  return { sha256: asDigest(whole.digest("hex")), parts };
}

function readExactly(fd: number, buffer: Buffer, length: number, hashes: Hash[]): void {
  for (let done = 0; done < length; ) {
    const got = readSync(fd, buffer, 0, Math.min(buffer.length, length - done), null);
    if (got === 0) throw new Error(`a part ended after ${done} of ${length} bytes`);
    const view = buffer.subarray(0, got);
    for (const hash of hashes) hash.update(view);
    done += got;
  }
}
