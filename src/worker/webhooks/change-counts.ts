/**
 * How many profiles a release added, changed and removed against the one it replaced, for an
 * event's body: the same counts as `GET /v1/releases` and `/v1/releases/{id}/changes` give, from
 * the one changes engine (src/common/catalog/changes-store.ts), which publish has usually stored
 * already.
 */
import { type ChangesBucket, ensureChanges, ReleaseWithoutIndex } from "../../common/catalog/changes-store";
import type { Manifest } from "../../common/catalog/manifest";
import type { ChangeCounts } from "../../common/catalog/release-changes";

/** Null when either release has no profile index (published before indexes existed). */
export async function changeCounts(
  bucket: ChangesBucket,
  release: Manifest,
  previous: Manifest | null,
): Promise<ChangeCounts | null> {
  if (!previous) return { added: release.profile_count, changed: 0, removed: 0 };
  try {
    return (await ensureChanges(bucket, release, previous)).counts;
  } catch (error) {
    if (error instanceof ReleaseWithoutIndex) return null;
    throw error;
  }
}
