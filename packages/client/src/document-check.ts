/**
 * The checks on a whole document, fed its bytes in order as they arrive (README "Paging and
 * verifying"): the envelope prefix the manifest implies, the closing "}", the sha256 of the whole
 * document and artifact_sha256 over the bytes of `data`. Constant memory: two incremental hashes.
 */
import { CatalogVerificationError } from "./errors.js";
import { documentPrefix } from "./protocol/digests.js";
import { expectDigest } from "./release-parts.js";
import { createSha256, type Sha256 } from "./sha256-stream.js";
import type { Manifest } from "./types.js";

const CLOSING_BRACE = 0x7d;

export class DocumentCheck {
  private readonly prefix: Uint8Array;
  private readonly artifact = createSha256();

  /** `whole` hashes the whole document: another implementation may run it elsewhere (sync: a worker thread). */
  constructor(
    private readonly manifest: Manifest,
    private readonly whole: Sha256 = createSha256(),
  ) {
    this.prefix = new TextEncoder().encode(
      documentPrefix(manifest.api_contract, manifest.release_id, manifest.artifact_sha256),
    );
  }

  /** `chunk` holds the document's bytes from `offset` on; chunks must come in order. */
  async add(chunk: Uint8Array, offset: number): Promise<void> {
    for (let i = 0; offset + i < this.prefix.length && i < chunk.length; i++) {
      if (chunk[i] !== this.prefix[offset + i])
        throw new CatalogVerificationError(
          `byte ${offset + i} of the document differs from the envelope the manifest implies`,
        );
    }
    const last = this.manifest.bytes - 1;
    if (offset <= last && last < offset + chunk.length && chunk[last - offset] !== CLOSING_BRACE) {
      throw new CatalogVerificationError(`the document's last byte is not the envelope's closing "}"`);
    }
    const data = this.dataOf(chunk, offset);
    if (data.length) await this.artifact.update(data);
    await this.whole.update(chunk);
  }

  /** The bytes of `chunk` that belong to `data`: after the prefix, before the closing "}". */
  dataOf(chunk: Uint8Array, offset: number): Uint8Array {
    const from = Math.max(0, this.prefix.length - offset);
    const to = Math.min(chunk.length, this.manifest.bytes - 1 - offset);
    return to > from ? chunk.subarray(from, to) : chunk.subarray(0, 0);
  }

  async finish(): Promise<void> {
    expectDigest("the whole document (sha256)", await this.whole.digest(), this.manifest.sha256);
    expectDigest("the data (artifact_sha256)", await this.artifact.digest(), this.manifest.artifact_sha256);
  }
}
