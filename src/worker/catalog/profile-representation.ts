/**
 * One profile as a byte representation (representation.ts): exactly its bytes in the release's
 * document, read from the one or two parts that hold them. Its validator and digest are the
 * profile's SHA-256 from the index, never computed while serving.
 */
import { asDigest, contentDigestOf } from "../../common/catalog/digest";
import { hexOf, storageKeys, type Manifest } from "../../common/catalog/manifest";
import { partSlicesFor } from "../../common/catalog/parts";
import type { IndexedProfile } from "../../common/catalog/profile-index";
import { CACHE_CURRENT, CACHE_PINNED, releasePath, type ByteRepresentation } from "./representation";

export const profileScopePath = (releaseId: string, productKey: string, funnelKey: string) =>
  `${releasePath(releaseId)}/profiles/${productKey}/${funnelKey}`;
export const profileIdPath = (releaseId: string, id: string) => `${releasePath(releaseId)}/profiles/${id}`;
export const productProfilesPath = (releaseId: string, productKey: string) =>
  `${releasePath(releaseId)}/products/${productKey}/profiles`;

/** `Catalog-Document-Range`: where the bytes are in the document, as a Content-Range value (RFC 9110 §14.4). */
export const documentRangeOf = (manifest: Manifest, profile: IndexedProfile) =>
  `bytes ${profile.offset}-${profile.offset + profile.length - 1}/${manifest.bytes}`;

/** `pinnedPath`: on a route that follows `current`, the pinned URL of the same profile (Content-Location). */
export function profileRepresentation(
  manifest: Manifest,
  profile: IndexedProfile,
  pinnedPath?: string,
): ByteRepresentation {
  const hex = hexOf(manifest.release_id);
  const headers: Record<string, string> = {
    "Catalog-Release": manifest.release_id,
    "Catalog-Document-Range": documentRangeOf(manifest, profile),
  };
  if (pinnedPath) headers["Content-Location"] = pinnedPath;
  return {
    size: profile.length,
    etag: `"${asDigest(profile.sha256)}"`,
    contentType: "application/json",
    digest: contentDigestOf(profile.sha256),
    cacheControl: pinnedPath ? CACHE_CURRENT : CACHE_PINNED,
    headers,
    slices: (start, end) => {
      // Parts are part_bytes long but the last: the parts that hold the range are found by division.
      const [from, to] = [profile.offset + start, profile.offset + end];
      const parts = manifest.parts.slice(
        Math.floor(from / manifest.part_bytes),
        Math.floor(to / manifest.part_bytes) + 1,
      );
      return partSlicesFor(parts, from, to).map((slice) => ({ ...slice, key: storageKeys.part(hex, slice.index) }));
    },
  };
}
