/**
 * How many profiles a release added, changed and removed against another: a streaming merge of
 * the two releases' id indexes (both sorted by profile id), one index segment (≤ 4 MiB) of each
 * in memory at a time. The `changes` engine of GET /v1/releases/{id}/changes computes the same
 * counts; when both exist, this function should become a call to it.
 */
import { hexOf, type Manifest } from "../../common/catalog/manifest";
import { linesOf, parseIdLine } from "../../common/catalog/profile-index";
import { storageKeys } from "../../common/catalog/manifest";

export interface ChangeCounts {
  added: number;
  changed: number;
  removed: number;
}

interface Entry {
  id: string;
  sha256: string;
}

/** Null when either release has no id index (published before indexes existed). */
export async function changeCounts(
  bucket: R2Bucket,
  release: Manifest,
  previous: Manifest | null,
): Promise<ChangeCounts | null> {
  if (!previous) return { added: release.profile_count, changed: 0, removed: 0 };
  const next = idEntries(bucket, release);
  const before = idEntries(bucket, previous);
  if (!next || !before) return null;
  const counts: ChangeCounts = { added: 0, changed: 0, removed: 0 };
  let a = await next.next();
  let b = await before.next();
  while (!a.done || !b.done) {
    if (b.done || (!a.done && a.value.id < b.value.id)) {
      counts.added += 1;
      a = await next.next();
    } else if (a.done || b.value.id < a.value.id) {
      counts.removed += 1;
      b = await before.next();
    } else {
      if (a.value.sha256 !== b.value.sha256) counts.changed += 1;
      a = await next.next();
      b = await before.next();
    }
  }
  return counts;
}

function idEntries(bucket: R2Bucket, manifest: Manifest): AsyncGenerator<Entry> | null {
  const index = manifest.index?.find((candidate) => candidate.name === "id");
  if (!index) return null;
  const hex = hexOf(manifest.release_id);
  return (async function* () {
    for (const segment of index.segments) {
      const key = storageKeys.indexSegment(hex, "id", segment.index);
      // The leaf pages are the segment's bytes before its directory page.
      const object = await bucket.get(key, { range: { offset: 0, length: segment.directory_offset } });
      if (!object) throw new Error(`R2 ${key} is missing`);
      for (const line of linesOf(await object.text())) yield parseIdLine(line);
    }
  })();
}
