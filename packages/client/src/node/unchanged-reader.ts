/**
 * K of rebuild-plan.ts read from the old document on disk: its runs of unchanged profiles, one
 * after the other with a comma between two runs, a chunk (≤ 1 MiB) at a time.
 */
import type { FileHandle } from "node:fs/promises";
import { CatalogVerificationError } from "../errors.js";
import type { Span } from "./rebuild-plan.js";

const CHUNK_BYTES = 1024 * 1024;
const COMMA = new Uint8Array([0x2c]);

export class UnchangedReader {
  private run = 0;
  private position: number;
  private commaNext = false;

  constructor(
    private readonly file: FileHandle,
    private readonly runs: readonly Span[],
  ) {
    this.position = runs[0]?.start ?? 0;
  }

  /** The next `length` bytes of K. */
  async *take(length: number): AsyncGenerator<Uint8Array> {
    let left = length;
    while (left > 0) {
      if (this.commaNext) {
        this.commaNext = false;
        left--;
        yield COMMA;
        continue;
      }
      const span = this.runs[this.run];
      if (!span)
        throw new CatalogVerificationError(
          "the local copy holds fewer unchanged profiles than the change list implies",
        );
      if (this.position === span.end) {
        this.run++;
        const next = this.runs[this.run];
        if (next) {
          this.position = next.start;
          this.commaNext = true;
        }
        continue;
      }
      const size = Math.min(left, span.end - this.position, CHUNK_BYTES);
      const chunk = new Uint8Array(size);
      const { bytesRead } = await this.file.read(chunk, 0, size, this.position);
      if (bytesRead !== size) throw new CatalogVerificationError("the local copy ended early");
      this.position += size;
      left -= size;
      yield chunk;
    }
  }

  /** Skips the comma between two unchanged runs of the new document. */
  async skipComma(): Promise<void> {
    for await (const byte of this.take(1))
      if (byte[0] !== COMMA[0])
        throw new CatalogVerificationError("the local copy's profiles are not where the change list says");
  }

  /** True once every byte of K was taken. */
  get finished(): boolean {
    const last = this.runs.at(-1);
    return !this.commaNext && (!last || (this.run >= this.runs.length - 1 && this.position === last.end));
  }
}
