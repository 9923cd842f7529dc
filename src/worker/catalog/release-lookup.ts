/**
 * What the REST door adds to the read service's release resolution (service/release.ts): how long
 * to wait when the catalog cannot be served, and the part of a release a part route names.
 */
import { Problem } from "../http/problem";
import type { Manifest } from "../../common/catalog/manifest";

/** How long a client should wait before asking again when the catalog cannot be served. */
export const CATALOG_RETRY_AFTER_SECONDS = 30;

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
