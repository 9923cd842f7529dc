/**
 * What changed between two kept releases: the counts and one page of the list stored per pair
 * (common/catalog/changes-store.ts), computed on the first read of a pair publish did not compute.
 * A page starts at a byte offset of that list; the doors say it as their own cursor.
 */
import {
  ChangesCursorInvalid,
  type ChangesSummary,
  ensureChanges,
  readChangesPage,
  ReleaseWithoutIndex,
} from "../../../common/catalog/changes-store";
import { asDigest } from "../../../common/catalog/digest";
import type { Manifest } from "../../../common/catalog/manifest";
import type { ChangeEntry, ReleaseChange } from "../../../common/catalog/release-changes";
import { profileIdPath } from "../profile-representation";
import { catalogMiss } from "./errors";
import { keptRelease, resolveRelease } from "./release";

/** The most changes one page holds, whatever the door. */
export const CHANGES_PAGE_LIMIT = 1000;

type ChangesEnv = { CATALOG_KV: KVNamespace; RELEASES: R2Bucket };

export interface ChangesAsked {
  /** The newer release; the current one when absent. */
  releaseId?: string;
  since: string;
  /**
   * The byte offset the page starts at, once the pair is known: a door opens its own cursor against
   * the two releases (absent: the first page).
   */
  from?: (pair: { release: Manifest; since: Manifest }) => Promise<number>;
  limit: number;
}

export interface ChangesPageRead extends ChangesSummary {
  release: Manifest;
  since: Manifest;
  changes: ChangeEntry[];
  /** Where the next page starts, or null after the last change. */
  next: number | null;
}

/** The pinned path of the changes page a cursor starts (REST's `next`, which carries it as `after`). */
export const changesPagePath = (read: { release: Manifest; since: Manifest }, limit: number, cursor: string) =>
  `/v1/releases/${read.release.release_id}/changes?since=${read.since.release_id}&limit=${limit}&cursor=${cursor}`;

/** The newer and the older (kept) release of a changes read. */
export async function changesPair(env: ChangesEnv, releaseId: string | undefined, since: string) {
  const release = await resolveRelease(env.CATALOG_KV, releaseId);
  return { release, since: await keptRelease(env.CATALOG_KV, since) };
}

export async function listChanges(env: ChangesEnv, asked: ChangesAsked): Promise<ChangesPageRead> {
  const { release, since } = await changesPair(env, asked.releaseId, asked.since);
  const summary = await changesBetween(env, release, since);
  const from = asked.from ? await asked.from({ release, since }) : 0;
  const page = await readChangesPage(env.RELEASES, release, since, from, asked.limit).catch((error: unknown) => {
    if (error instanceof ChangesCursorInvalid)
      throw catalogMiss({ kind: "invalid_changes_cursor", reason: error.message });
    throw error;
  });
  const changes = page.changes.map((change) => changeEntry(change, release, since));
  return { ...summary, release, since, changes, next: page.next };
}

/** The counts of a pair, the list stored; a release published before indexes is release_not_indexed. */
export function changesBetween(env: ChangesEnv, newer: Manifest, older: Manifest): Promise<ChangesSummary> {
  return ensureChanges(env.RELEASES, newer, older).catch((error: unknown) => {
    if (error instanceof ReleaseWithoutIndex)
      throw catalogMiss({ kind: "release_not_indexed", releaseId: error.releaseId });
    throw error;
  });
}

function changeEntry(change: ReleaseChange, newer: Manifest, older: Manifest): ChangeEntry {
  const { current, previous } = change;
  return {
    change: change.change,
    agent_readiness_profile_id: change.id,
    product_key: change.productKey,
    funnel_key: change.funnelKey,
    ...(current && { sha256: asDigest(current.sha256), offset: current.offset, length: current.length }),
    ...(previous && {
      previous_sha256: asDigest(previous.sha256),
      previous_offset: previous.offset,
      previous_length: previous.length,
    }),
    href: profileIdPath(current ? newer.release_id : older.release_id, change.id),
  };
}
