/**
 * A release's immutable R2 objects — its parts and its index segments — and the two operations
 * publishing does on each: a create-only, checksummed write, and a check of what R2 holds.
 */
import { toHex } from "../../common/catalog/digest";
import { hexOf, storageKeys, type Manifest } from "../../common/catalog/manifest";
import type { IndexName } from "../../common/catalog/profile-index";

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
    options: { onlyIf?: { etagDoesNotMatch: string }; sha256: string; httpMetadata: { contentType: string } },
  ): Promise<StoredObject | null>;
  head(key: string): Promise<StoredObject | null>;
}

/** Where a release's object comes from in a build. */
export type ObjectSource = { kind: "part"; index: number } | { kind: "index"; name: IndexName; index: number };

export interface ReleaseObject {
  key: string;
  length: number;
  sha256: string;
  source: ObjectSource;
}

export class PublishError extends Error {}

/** Every immutable object of a release: its parts, then its index segments. */
export function releaseObjects(manifest: Manifest): ReleaseObject[] {
  const hex = hexOf(manifest.release_id);
  const parts = manifest.parts.map((part) => ({
    key: storageKeys.part(hex, part.index),
    length: part.length,
    sha256: part.sha256,
    source: { kind: "part" as const, index: part.index },
  }));
  const segments = (manifest.index ?? []).flatMap(({ name, segments }) =>
    segments.map((segment) => ({
      key: storageKeys.indexSegment(hex, name, segment.index),
      length: segment.length,
      sha256: segment.sha256,
      source: { kind: "index" as const, name, index: segment.index },
    })),
  );
  return [...parts, ...segments];
}

/**
 * Create-only write (R2 `onlyIf: etagDoesNotMatch "*"`) with the sha256 R2 checks on arrival.
 * Returns false when an identical object was already there; throws when a different one is.
 */
export async function putImmutable(
  bucket: ReleaseBucket,
  key: string,
  bytes: Uint8Array,
  digest: string,
  contentType: string,
): Promise<boolean> {
  let written: StoredObject | null;
  try {
    written = await bucket.put(key, bytes, {
      onlyIf: { etagDoesNotMatch: "*" },
      sha256: hexOf(digest),
      httpMetadata: { contentType },
    });
  } catch (error) {
    throw new PublishError(
      `writing R2 ${key} (${digest}) failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (written) return true;
  await verifyObject(bucket, key, bytes.byteLength, digest);
  return false;
}

export async function verifyObject(bucket: ReleaseBucket, key: string, size: number, digest: string): Promise<void> {
  const found = await storedDigest(bucket, key);
  if (found.size !== size || found.digest !== digest) {
    throw new PublishError(
      `R2 ${key} holds ${found.size} bytes with ${found.digest}; expected ${size} bytes with ${digest} (objects are immutable)`,
    );
  }
}

async function storedDigest(bucket: ReleaseBucket, key: string): Promise<{ size: number; digest: string }> {
  const object = await bucket.head(key);
  if (!object) throw new PublishError(`R2 ${key} is missing`);
  return {
    size: object.size,
    digest: object.checksums.sha256 ? `sha256:${toHex(object.checksums.sha256)}` : "no sha256 checksum",
  };
}
