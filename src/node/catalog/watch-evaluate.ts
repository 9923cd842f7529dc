/**
 * Which profiles of one history event enter, leave or change for one watch predicate (docs/history.md
 * "Watches"). Pure: the event's history rows (the profiles whose bytes changed, in catalog order)
 * and, for query watches, both releases' query rows of those profiles in; the lists of profile ids
 * out (each entry is made from its history row as it is written: watch-record.ts). Only the
 * changed profiles are looked at, and watches with the same predicate are evaluated once, so the
 * work follows the changes and the distinct predicates, not the catalog or the watches.
 */
import { compileFilter, type FilterRow, type QueryFilter } from "../../common/catalog/query-filter";

/** A row of `history_profiles` for the event, as much as the evaluation reads of it. */
export interface ChangedProfile {
  id: string;
  product_key: string;
  funnel_key: string;
  change: "added" | "changed" | "removed";
}

/** What a watch matches: a query's filter or a list of profiles (exactly one is set). */
export interface WatchPredicate {
  filter: QueryFilter | null;
  profiles: (string | { product: string; funnel: string })[] | null;
}

/** Both sides of a page of the event for query watches: each release's query rows and `q` matches by id. */
export interface EventSides {
  newRows: Map<string, FilterRow>;
  oldRows: Map<string, FilterRow>;
  /** q → ids matching it in the new / old release (among the changed profiles). */
  newText: Map<string, Set<string>>;
  oldText: Map<string, Set<string>>;
}

/** The history event's two releases (`previous` the one current before it). */
export interface EventReleases {
  release: string;
  previous: string;
}

/** Profile ids, in catalog order. */
export interface WatchLists {
  entered: string[];
  left: string[];
  changed: string[];
}

/** Whether a profile matches on one side; `sides` null when a release's query rows are not loaded. */
export type Matcher = (profile: ChangedProfile, side: "new" | "old", sides: EventSides | null) => boolean;

/** The predicate over the event's profiles, compiled once for all its watches and pages. */
export function matcherOf({ filter, profiles }: WatchPredicate): Matcher {
  if (profiles) {
    const wanted = new Set(profiles.map((ref) => (typeof ref === "string" ? ref : `${ref.product}/${ref.funnel}`)));
    return (profile) => wanted.has(profile.id) || wanted.has(`${profile.product_key}/${profile.funnel_key}`);
  }
  if (!filter) return () => false;
  const test = compileFilter(filter);
  return (profile, side, sides) => {
    if (!sides) return false;
    const row = (side === "new" ? sides.newRows : sides.oldRows).get(profile.id);
    const text = side === "new" ? sides.newText : sides.oldText;
    return row !== undefined && test(row, (q) => text.get(q)?.has(profile.id) ?? false);
  };
}

/** The entered, left and changed lists of one predicate among `profiles` (a page of the event), in catalog order. */
export function watchLists(profiles: ChangedProfile[], matches: Matcher, sides: EventSides | null): WatchLists {
  const lists: WatchLists = { entered: [], left: [], changed: [] };
  for (const profile of profiles) {
    const inNew = profile.change !== "removed" && matches(profile, "new", sides);
    const inOld = profile.change !== "added" && matches(profile, "old", sides);
    if (inNew && !inOld) lists.entered.push(profile.id);
    else if (inOld && !inNew) lists.left.push(profile.id);
    else if (inNew && inOld) lists.changed.push(profile.id);
  }
  return lists;
}
