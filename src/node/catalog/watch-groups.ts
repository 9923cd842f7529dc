/**
 * The watches of one history event grouped by predicate (src/node/catalog/watch-record.ts): watches
 * with the same filter (or the same profiles) catch the same profiles, so each distinct predicate
 * is parsed, compiled and evaluated once and its lists are stored once. Read in keyset pages of
 * bounded size; what crosses from D1 is each watch's id and predicate text, nothing per profile.
 */
import { createHash } from "node:crypto";
import type { QueryDb } from "./query-load";
import type { WatchPredicate } from "./watch-evaluate";
import { jsonOf } from "./watch-sides";

const PAGE_WATCHES = 2_000;
const WATCHES =
  "SELECT json_group_array(json_array(id, filter, profiles)) AS v FROM " +
  "(SELECT id, filter, profiles FROM watches WHERE created_at < ? AND id > ? ORDER BY id LIMIT ?)";

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
    const page = await jsonOf<[string, string | null, string | null][]>(
      db.prepare(WATCHES).bind(at, after, PAGE_WATCHES),
      [],
    );
    for (const [id, filter, profiles] of page) {
      const key = filter === null ? `profiles ${profiles}` : `filter ${filter}`;
      const group = groups.get(key) ?? newGroup(key, seq, filter, profiles);
      group.watchIds.push(id);
      groups.set(key, group);
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE_WATCHES) return [...groups.values()];
    after = last[0];
  }
}

function newGroup(key: string, seq: number, filter: string | null, profiles: string | null): PredicateGroup {
  return {
    predicate: {
      filter: filter === null ? null : JSON.parse(filter),
      profiles: profiles === null ? null : JSON.parse(profiles),
    },
    listsId: createHash("sha256").update(`${key}:${seq}`).digest("hex").slice(0, 32),
    watchIds: [],
  };
}
