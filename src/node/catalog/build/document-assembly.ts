/**
 * Passes 2 and 3 of a build: profiles in catalog order become the document
 * `prefix + JCS(data) + "}"` in the part files, and every digest of docs/contract.md is computed:
 * artifact_sha256 and the parts after the prefix on a worker thread as the data is written, then
 * release_id, the prefix, and one read pass for the whole document's SHA-256.
 */
import type { Manifest } from "../../../common/catalog/manifest";
import { asDigest, documentPrefix, DOCUMENT_SUFFIX, releaseIdOf } from "../../../common/catalog/digest";
import { CHUNK_BYTES, hashDocument, PartFilesWriter } from "./document-writer";
import type { SpillRecord } from "./spill";
import { StreamHasher } from "./stream-hasher";

export interface AssemblyOptions {
  partsDir: string;
  partBytes: number;
  apiContract: string;
  profileCount: number;
  /** Sees each record in catalog order; false stops writing (the build failed, only checks go on). */
  onRecord: (record: SpillRecord) => boolean;
  /** Sees each record written, with the document offset of its first byte. */
  onWritten?: (record: SpillRecord, offset: number) => void;
  onProgress: (phase: "write" | "hash", done: number, total: number) => void;
}

const PLACEHOLDER = asDigest("0".repeat(64));
const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

/** Writes the document; returns its manifest (published_at null), or undefined if `onRecord` refused a record. */
export async function assembleDocument(
  records: Iterable<SpillRecord>,
  options: AssemblyOptions,
): Promise<Manifest | undefined> {
  const { partsDir, partBytes, apiContract, profileCount } = options;
  const prefixLength = Buffer.byteLength(documentPrefix(apiContract, PLACEHOLDER, PLACEHOLDER));
  const hasher = new StreamHasher(prefixLength, partBytes, CHUNK_BYTES);
  let inData = true;
  const writer = new PartFilesWriter(partsDir, partBytes, prefixLength, {
    next: () => hasher.nextChunk(),
    written: (offset, length) => hasher.send(offset, length, inData),
  });
  let written = 0;
  let writing = true;
  let complete = false;
  try {
    options.onProgress("write", 0, profileCount);
    writer.write(OPEN);
    for (const record of records) {
      writing = options.onRecord(record) && writing;
      if (!writing) continue;
      if (written > 0) writer.write(COMMA);
      options.onWritten?.(record, writer.size);
      writer.write(record.body);
      if (++written % 1000 === 0) options.onProgress("write", written, profileCount);
    }
    if (!writing) return undefined;
    writer.write(CLOSE);
    writer.flush();
    inData = false;
    writer.write(Buffer.from(DOCUMENT_SUFFIX));
    writer.flush();
    complete = true;
  } finally {
    if (!complete) await hasher.cancel(); // a failed build, or an I/O error: do not leave the worker running
  }
  const { data, parts: partHashes } = await hasher.finish();
  const artifactSha256 = asDigest(data);
  const releaseId = await releaseIdOf(apiContract, artifactSha256);
  const prefix = Buffer.from(documentPrefix(apiContract, releaseId, artifactSha256));
  if (prefix.length !== prefixLength)
    throw new Error(`document prefix is ${prefix.length} bytes, expected ${prefixLength}`);
  writer.writeAt(0, prefix);
  const bytes = writer.size;
  writer.close();

  options.onProgress("hash", 0, bytes);
  const hashed = hashDocument(partsDir, bytes, partBytes, partHashes);
  options.onProgress("hash", bytes, bytes);
  return {
    release_id: releaseId,
    artifact_sha256: artifactSha256,
    api_contract: apiContract,
    bytes,
    sha256: hashed.sha256,
    part_bytes: partBytes,
    profile_count: profileCount,
    published_at: null,
    parts: hashed.parts,
  };
}
