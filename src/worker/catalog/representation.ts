/**
 * What the byte-serving routes serve: the whole document or one part of a release, described by
 * its size, its validator, its digest (from the manifest, never computed here) and the R2 byte
 * ranges that make it up.
 */
import { contentDigestOf } from "../../common/catalog/digest";
import { hexOf, storageKeys, type Manifest } from "../../common/catalog/manifest";
import { partSlicesFor } from "../../common/catalog/parts";

/** A byte range of one R2 object. */
export interface ObjectSlice {
  key: string;
  offset: number;
  length: number;
}

export interface ByteRepresentation {
  size: number;
  /** Strong validator, quoted (RFC 9110 §8.8.3). */
  etag: string;
  contentType: string;
  /** RFC 9530 digest of the whole representation. */
  digest: string;
  cacheControl: string;
  headers: Record<string, string>;
  slices(start: number, end: number): ObjectSlice[];
  /** The R2 key of the one object that is the whole representation (a part), which may be cached. */
  wholeObject?: string;
}

/**
 * Pinned URLs can be cached forever by the client; URLs that follow `current` must be revalidated.
 * `no-transform`: the bytes are served identity-only (see identity-only.ts).
 */
export const CACHE_PINNED = "private, max-age=31536000, immutable, no-transform";
export const CACHE_CURRENT = "private, no-cache, no-transform";

export const releasePath = (releaseId: string) => `/v1/releases/${releaseId}`;
export const partPath = (releaseId: string, index: number) => `${releasePath(releaseId)}/parts/${index}`;

const documentPath = (releaseId: string) => `${releasePath(releaseId)}/catalog`;

/**
 * The whole document of a release. At /v1/catalog (`pinned` false) Content-Location names the
 * pinned URL: a download tool that resumes with a plain Range (curl -C -, wget -c, aria2c -c sends
 * no If-Range) resumes that URL and cannot mix two releases.
 */
export function documentRepresentation(manifest: Manifest, pinned: boolean): ByteRepresentation {
  const hex = hexOf(manifest.release_id);
  const headers: Record<string, string> = { "Catalog-Release": manifest.release_id };
  if (!pinned) headers["Content-Location"] = documentPath(manifest.release_id);
  return {
    size: manifest.bytes,
    etag: `"${manifest.release_id}"`,
    contentType: "application/json",
    digest: contentDigestOf(manifest.sha256),
    cacheControl: pinned ? CACHE_PINNED : CACHE_CURRENT,
    headers,
    slices: (start, end) =>
      partSlicesFor(manifest.parts, start, end).map((slice) => ({ ...slice, key: storageKeys.part(hex, slice.index) })),
  };
}

/** RFC 9530 field values of a manifest's parts, worked out once per manifest (manifests are immutable). */
const partDigests = new WeakMap<Manifest, string[]>();
function partDigestOf(manifest: Manifest, index: number): string {
  let digests = partDigests.get(manifest);
  if (!digests) {
    digests = [];
    partDigests.set(manifest, digests);
  }
  digests[index] ??= contentDigestOf(partOf(manifest, index).sha256);
  return digests[index];
}

/** Part `index` of the manifest; the routes check the index against the manifest before asking. */
function partOf(manifest: Manifest, index: number) {
  const part = manifest.parts[index];
  if (!part) throw new Error(`release ${manifest.release_id} has no part ${index}`);
  return part;
}

export function partRepresentation(manifest: Manifest, index: number, pinned: boolean): ByteRepresentation {
  const part = partOf(manifest, index);
  const count = manifest.parts.length;
  const headers: Record<string, string> = {
    "Catalog-Release": manifest.release_id,
    "Catalog-Part": `${index}/${count}`,
  };
  // RFC 8288: the next part of the same release, so a client paging by links never mixes releases.
  if (index + 1 < count) headers.Link = `<${partPath(manifest.release_id, index + 1)}>; rel="next"`;
  if (!pinned) headers["Content-Location"] = partPath(manifest.release_id, index);
  return {
    size: part.length,
    etag: `"${manifest.release_id}/parts/${index}"`,
    contentType: "application/octet-stream",
    digest: partDigestOf(manifest, index),
    cacheControl: pinned ? CACHE_PINNED : CACHE_CURRENT,
    headers,
    slices: (start, end) => [
      { key: storageKeys.part(hexOf(manifest.release_id), index), offset: start, length: end - start + 1 },
    ],
    wholeObject: storageKeys.part(hexOf(manifest.release_id), index),
  };
}
