/**
 * Which release a read is about: the current one, or a pinned one by id, with or without the
 * `sha256:` prefix (the one place that says so), and whether a release is still kept.
 */
import { hexOf, type Manifest } from "../../../common/catalog/manifest";
import { readCurrentPointer, readManifest, type ManifestKv } from "../../../common/catalog/store";
import { catalogMiss } from "./errors";

/** A release id: `sha256:` and 64 lowercase hex digits, the prefix optional. */
export const RELEASE_ID = /^(sha256:)?[0-9a-f]{64}$/;

/** The release id in its one written form, `sha256:<hex>`. */
export const releaseIdOf = (id: string) => (id.startsWith("sha256:") ? id : `sha256:${id}`);

/** The current release, or the one `releaseId` names (either form). */
export function resolveRelease(kv: ManifestKv, releaseId?: string): Promise<Manifest> {
  return releaseId === undefined ? currentRelease(kv) : pinnedRelease(kv, releaseId);
}

async function currentRelease(kv: ManifestKv): Promise<Manifest> {
  const pointer = await readCurrentPointer(kv);
  if (!pointer) throw catalogMiss({ kind: "no_release" });
  const manifest = await readManifest(kv, hexOf(pointer.release_id));
  // KV replicates eventually: this location may see the new pointer before the manifest it names.
  if (!manifest) throw catalogMiss({ kind: "current_not_readable", releaseId: pointer.release_id });
  return manifest;
}

async function pinnedRelease(kv: ManifestKv, id: string): Promise<Manifest> {
  const releaseId = releaseIdOf(id);
  const manifest = await readManifest(kv, hexOf(releaseId));
  if (!manifest) throw catalogMiss({ kind: "release_not_found", releaseId });
  return manifest;
}

/** A release still kept (current or one of the 5 before it): older ones have no kept change lists. */
export async function keptRelease(kv: ManifestKv, id: string): Promise<Manifest> {
  const releaseId = releaseIdOf(id);
  const pointer = await readCurrentPointer(kv);
  if (!pointer) throw catalogMiss({ kind: "no_release" });
  const kept = [pointer.release_id, ...pointer.previous];
  if (!kept.includes(releaseId))
    throw catalogMiss({ kind: "release_gone", releaseId, oldestKept: kept.at(-1) ?? pointer.release_id });
  return pinnedRelease(kv, releaseId);
}
