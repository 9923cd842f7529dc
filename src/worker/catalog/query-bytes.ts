/**
 * The bytes of a page of profiles, read from the release's parts exactly as single lookups read
 * them (profile-representation.ts): each profile's range, from the one or two parts that hold it,
 * all ranges at once.
 */
import { concatBytes } from "../../common/bytes";
import { catalogMiss } from "./service/errors";
import { hexOf, storageKeys, type Manifest } from "../../common/catalog/manifest";
import { partSlicesFor } from "../../common/catalog/parts";
import { retryTransient } from "../../common/transient";

export interface ByteRange {
  offset: number;
  length: number;
}

export async function profileBytes(bucket: R2Bucket, manifest: Manifest, ranges: ByteRange[]): Promise<Uint8Array[]> {
  const hex = hexOf(manifest.release_id);
  return Promise.all(
    ranges.map(async ({ offset, length }) => {
      const slices = partSlicesFor(manifest.parts, offset, offset + length - 1);
      const pieces = await Promise.all(
        slices.map(async (slice) => {
          const range = { offset: slice.offset, length: slice.length };
          const object = await retryTransient(() => bucket.get(storageKeys.part(hex, slice.index), { range }));
          if (!object) {
            throw catalogMiss({ kind: "storage_unreadable", releaseId: manifest.release_id, what: "parts" });
          }
          return new Uint8Array(await object.arrayBuffer());
        }),
      );
      const [only] = pieces;
      return pieces.length === 1 && only ? only : concatBytes(pieces, length);
    }),
  );
}
