/**
 * Publish and roll back releases over a deployment's R2 bucket and KV namespace
 * (shared/DESIGN.md, "Parts"). One definition for the Node CLIs (bindings from wrangler's
 * getPlatformProxy, local or remote) and the workerd tests (the real local bindings).
 *
 * Order is the whole point: parts (create-only, checksummed by R2) → manifest (KV, then R2) →
 * verify every object → only then flip `current`. Interrupted anywhere before the flip, the
 * previous release is still the one served; run again, it picks up where it stopped.
 */
import { sha256Hex, toHex } from "./digest";
import { hexOf, Manifest, storageKeys } from "./manifest";
import { releaseProblems, sameLayout } from "./release-check";
import { pointerMakingCurrent, pointerRollingBackTo } from "./release-pointer";
import { readCurrent, writeCurrentPointer } from "./store";

export { readCurrent };

/** The parts of R2's object metadata publishing reads (R2Object satisfies it). */
export interface StoredObject {
  size: number;
  checksums: { sha256?: ArrayBuffer };
}
/** The subset of an R2 bucket binding publishing uses (R2Bucket satisfies it). */
export interface ReleaseBucket {
  put(
    key: string,
    value: Uint8Array | string,
    options: { onlyIf: { etagDoesNotMatch: string }; sha256: string; httpMetadata: { contentType: string } },
  ): Promise<StoredObject | null>;
  head(key: string): Promise<StoredObject | null>;
}
/** The subset of a KV namespace binding publishing uses (KVNamespace satisfies it). */
export interface ReleaseKv {
  get(key: string): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
}
export interface ReleaseStorage {
  bucket: ReleaseBucket;
  kv: ReleaseKv;
}
/** A built release: its manifest and a way to read each part's bytes. */
export interface ReleaseSource {
  manifest: unknown;
  readPart(index: number): Promise<Uint8Array>;
}

export type PublishProgress =
  | { phase: "upload"; index: number; count: number; bytes: number; existed: boolean }
  | { phase: "verify"; index: number; count: number };

export interface PublishResult {
  release_id: string;
  published_at: string;
  parts: number;
  parts_uploaded: number;
  bytes_uploaded: number;
  /** False when the release was already current (publishing it again changed nothing). */
  pointer_flipped: boolean;
  previous_release_id: string | null;
}

export class PublishError extends Error {}

export async function publishRelease(
  storage: ReleaseStorage,
  source: ReleaseSource,
  options: { now?: () => Date; onProgress?: (progress: PublishProgress) => void } = {},
): Promise<PublishResult> {
  const problems = await releaseProblems(source.manifest);
  if (problems.length) throw new PublishError(`the build's manifest cannot be published:\n- ${problems.join("\n- ")}`);
  const built = Manifest.parse(source.manifest);
  const hex = hexOf(built.release_id);

  const existing = await readManifest(storage.kv, hex);
  if (existing && !sameLayout(existing, built)) {
    throw new PublishError(
      `${built.release_id} is already published with part_bytes ${existing.part_bytes}; ` +
        `a release's layout is immutable: rebuild with --part-bytes ${existing.part_bytes}`,
    );
  }
  // published_at is set once, at first publish, and kept by every later publish.
  const manifest: Manifest = { ...built, published_at: existing?.published_at ?? (options.now?.() ?? new Date()).toISOString() };

  let uploaded = 0;
  let uploadedBytes = 0;
  for (const part of manifest.parts) {
    const bytes = await source.readPart(part.index);
    if (bytes.byteLength !== part.length) {
      throw new PublishError(`part ${part.index} of the build is ${bytes.byteLength} bytes; the manifest says ${part.length}`);
    }
    const created = await putImmutable(storage.bucket, storageKeys.part(hex, part.index), bytes, part.sha256, "application/octet-stream");
    if (created) {
      uploaded += 1;
      uploadedBytes += part.length;
    }
    options.onProgress?.({ phase: "upload", index: part.index, count: manifest.parts.length, bytes: part.length, existed: !created });
  }

  const manifestText = JSON.stringify(manifest);
  if (!existing) await storage.kv.put(storageKeys.releaseManifestKv(hex), manifestText);
  const manifestBytes = new TextEncoder().encode(manifestText);
  const manifestDigest = `sha256:${await sha256Hex(manifestBytes)}`;
  await putImmutable(storage.bucket, storageKeys.releaseManifestR2(hex), manifestBytes, manifestDigest, "application/json");

  await verifyRelease(storage, manifest, options.onProgress);
  const stored = await storage.kv.get(storageKeys.releaseManifestKv(hex));
  if (stored !== manifestText) throw new PublishError(`KV ${storageKeys.releaseManifestKv(hex)} does not hold the manifest just written`);
  await verifyObject(storage.bucket, storageKeys.releaseManifestR2(hex), manifestBytes.byteLength, manifestDigest);

  const current = await readCurrent(storage.kv);
  const next = pointerMakingCurrent(current, manifest.release_id);
  if (next !== current) await writeCurrentPointer(storage.kv, next);
  return {
    release_id: manifest.release_id,
    published_at: manifest.published_at!,
    parts: manifest.parts.length,
    parts_uploaded: uploaded,
    bytes_uploaded: uploadedBytes,
    pointer_flipped: next !== current,
    previous_release_id: next !== current ? (current?.release_id ?? null) : null,
  };
}

/** Point `current` back at a kept earlier release, after checking every object of it is intact. */
export async function rollbackRelease(
  storage: ReleaseStorage,
  releaseId: string,
  options: { onProgress?: (progress: PublishProgress) => void } = {},
): Promise<{ release_id: string; previous_release_id: string; pointer_flipped: boolean }> {
  const current = await readCurrent(storage.kv);
  const next = pointerRollingBackTo(current, releaseId);
  const manifest = await readManifest(storage.kv, hexOf(releaseId));
  if (!manifest) throw new PublishError(`${releaseId} is listed as kept but its manifest is missing from KV; publish its build again`);
  await verifyRelease(storage, manifest, options.onProgress);
  if (next !== current) await writeCurrentPointer(storage.kv, next);
  return { release_id: releaseId, previous_release_id: current!.release_id, pointer_flipped: next !== current };
}

/**
 * Create-only write (R2 `onlyIf: etagDoesNotMatch "*"`) with the sha256 R2 checks on arrival.
 * Returns false when an identical object was already there; throws when a different one is.
 */
async function putImmutable(bucket: ReleaseBucket, key: string, bytes: Uint8Array, digest: string, contentType: string): Promise<boolean> {
  let written: StoredObject | null;
  try {
    written = await bucket.put(key, bytes, { onlyIf: { etagDoesNotMatch: "*" }, sha256: hexOf(digest), httpMetadata: { contentType } });
  } catch (error) {
    throw new PublishError(`writing R2 ${key} (${digest}) failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (written) return true;
  await verifyObject(bucket, key, bytes.byteLength, digest);
  return false;
}

async function verifyRelease(storage: ReleaseStorage, manifest: Manifest, onProgress?: (progress: PublishProgress) => void) {
  const hex = hexOf(manifest.release_id);
  for (const part of manifest.parts) {
    await verifyObject(storage.bucket, storageKeys.part(hex, part.index), part.length, part.sha256);
    onProgress?.({ phase: "verify", index: part.index, count: manifest.parts.length });
  }
}

async function verifyObject(bucket: ReleaseBucket, key: string, size: number, digest: string): Promise<void> {
  const object = await bucket.head(key);
  if (!object) throw new PublishError(`R2 ${key} is missing`);
  const found = object.checksums.sha256 ? `sha256:${toHex(object.checksums.sha256)}` : "no sha256 checksum";
  if (object.size !== size || found !== digest) {
    throw new PublishError(`R2 ${key} holds ${object.size} bytes with ${found}; expected ${size} bytes with ${digest} (objects are immutable)`);
  }
}

async function readManifest(kv: ReleaseKv, hex: string): Promise<Manifest | null> {
  const text = await kv.get(storageKeys.releaseManifestKv(hex));
  return text === null ? null : Manifest.parse(JSON.parse(text));
}
