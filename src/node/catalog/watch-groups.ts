/**
 * The watches of one history event grouped by predicate (src/node/catalog/watch-record.ts): watches
 * with the same filter (or the same profiles) catch the same profiles, so each distinct predicate
 * is parsed, compiled and evaluated once and its lists are stored once. Read in keyset pages of
 * bounded size; what crosses from D1 is each watch's id and its group's, and each predicate's text
 * once.
 */
import { createHash } from "node:crypto";
import type { QueryDb } from "./query-load";
import type { WatchPredicate } from "./watch-evaluate";
import { jsonOf } from "./watch-sides";

const PAGE_WATCHES = 2_000;
/** Each watch's id and its group's first watch; the predicate's text only on that first one's row. */
const WATCHES =
  "SELECT json_group_array(json_array(id, first, iif(id = first, filter, NULL), iif(id = first, profiles, NULL))) AS v " +
  "FROM (SELECT * FROM (SELECT id, filter, profiles, min(id) OVER (PARTITION BY filter, profiles) AS first " +
  "FROM watches WHERE created_at < ?) WHERE id > ? ORDER BY id LIMIT ?)";

export interface PredicateGroup {
  predicate: WatchPredicate;
  /** The id the group's lists are stored under at this event: from the predicate and the event. */
  listsId: string;
  watchIds: string[];
}

/** The watches created before `at`, grouped by predicate. */
export async function watchGroups(db: QueryDb, at: string, seq: number): Promise<PredicateGroup[]> {
  const groups = new Map<string, PredicateGroup>();
  for (let after = ""; ; ) {
    const page = await jsonOf<[string, string, string | null, string | null][]>(
      db.prepare(WATCHES).bind(at, after, PAGE_WATCHES),
      [],
    );
    for (const [id, first, filter, profiles] of page) {
      // The first watch of a group comes first in id order, with the group's predicate.
      const group = groups.get(first) ?? newGroup(seq, filter, profiles);
      group.watchIds.push(id);
      groups.set(first, group);
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE_WATCHES) return [...groups.values()];
    after = last[0];
  }
}

function newGroup(seq: number, filter: string | null, profiles: string | null): PredicateGroup {
  const key = filter === null ? `profiles ${profiles}` : `filter ${filter}`;
  return {
    predicate: {
      filter: filter === null ? null : JSON.parse(filter),
      profiles: profiles === null ? null : JSON.parse(profiles),
    },
    listsId: createHash("sha256").update(`${key}:${seq}`).digest("hex").slice(0, 32),
    watchIds: [],
  };
}
