/**
 * Finds the release a request is about — the current one or a pinned one — or fails with the
 * problem a client can act on.
 */
import { Problem } from "../http/problem";
import { hexOf, type Manifest } from "../../common/catalog/manifest";
import { readCurrentPointer, readManifest, type ManifestKv } from "../../common/catalog/store";

/** How long a client should wait before asking again when the catalog cannot be served. */
export const CATALOG_RETRY_AFTER_SECONDS = 30;

export async function currentRelease(kv: ManifestKv): Promise<Manifest> {
  const pointer = await readCurrentPointer(kv);
  const retry = { headers: { "Retry-After": String(CATALOG_RETRY_AFTER_SECONDS) } };
  if (!pointer) {
    throw new Problem(
      "catalog_unavailable",
      "No catalog release has been published on this deployment yet; retry later.",
      retry,
    );
  }
  const manifest = await readManifest(kv, hexOf(pointer.release_id));
  // KV replicates eventually: this location may see the new pointer before the manifest it names.
  if (!manifest) {
    throw new Problem(
      "release_unavailable",
      `The current release ${pointer.release_id} is not readable at this location yet; retry shortly.`,
      retry,
    );
  }
  return manifest;
}

export async function pinnedRelease(kv: ManifestKv, releaseId: string): Promise<Manifest> {
  const manifest = await readManifest(kv, hexOf(releaseId));
  if (!manifest) {
    throw new Problem(
      "release_not_found",
      `No release ${releaseId} is published on this deployment. GET /v1/releases/current names the current one.`,
    );
  }
  return manifest;
}

export function partOf(manifest: Manifest, index: number): number {
  if (index >= manifest.parts.length) {
    const count = manifest.parts.length;
    throw new Problem(
      "part_not_found",
      `Release ${manifest.release_id} has ${count} part${count === 1 ? "" : "s"} (0 to ${count - 1}); there is no part ${index}.`,
    );
  }
  return index;
}
