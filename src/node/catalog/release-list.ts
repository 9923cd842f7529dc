/**
 * The releases a deployment keeps, as `catalog:rollback` shows them: the current one and the
 * earlier ones it can go back to, each with when it was published, its profile count and size,
 * and whether making it current goes back (an older release) or forward (a newer one).
 */
import { expectDefined } from "../../common/expect";
import { hexOf, type CurrentPointer } from "../../common/catalog/manifest";
import { readManifest, type ManifestKv } from "../../common/catalog/store";
import { formatBytes } from "../cli/progress";
import { textTable } from "../cli/text-table";

export interface KeptRelease {
  release_id: string;
  current: boolean;
  /** Null when the manifest is missing from KV (the release cannot be rolled back to). */
  published_at: string | null;
  profile_count: number | null;
  bytes: number | null;
}

export async function keptReleases(kv: ManifestKv, pointer: CurrentPointer): Promise<KeptRelease[]> {
  const ids = [pointer.release_id, ...pointer.previous];
  return Promise.all(
    ids.map(async (id, i) => {
      const manifest = await readManifest(kv, hexOf(id));
      return {
        release_id: id,
        current: i === 0,
        published_at: manifest?.published_at ?? null,
        profile_count: manifest?.profile_count ?? null,
        bytes: manifest?.bytes ?? null,
      };
    }),
  );
}

/** "back" when `target` was published before `from`, "forward" when after (ISO times compare as text). */
export function direction(target: KeptRelease, from: KeptRelease): "back" | "forward" {
  return target.published_at !== null && from.published_at !== null && target.published_at > from.published_at
    ? "forward"
    : "back";
}

export function releaseTable(releases: readonly KeptRelease[]): string {
  const current = expectDefined(
    releases.find((release) => release.current),
    "the current release among the kept ones",
  );
  const rows = releases.map((release) => [
    release.current ? "current" : `kept (${direction(release, current) === "forward" ? "newer" : "older"})`,
    release.release_id,
    release.published_at ?? "manifest missing",
    release.profile_count === null ? "?" : release.profile_count.toLocaleString("en-US"),
    release.bytes === null ? "?" : formatBytes(release.bytes),
  ]);
  const table = [["STATUS", "RELEASE", "PUBLISHED", "PROFILES", "SIZE"], ...rows];
  return textTable(table, [3, 4]);
}
