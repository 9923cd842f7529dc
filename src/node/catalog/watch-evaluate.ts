/**
 * Which profiles of one history event enter, leave or change for one watch predicate (docs/history.md
 * "Watches"). Pure: the event's history rows (the profiles whose bytes changed, in catalog order)
 * and, for query watches, both releases' query rows of those profiles in; the lists out. Only the
 * changed profiles are looked at, and watches with the same predicate are evaluated once, so the
 * work follows the changes and the distinct predicates, not the catalog or the watches.
 */
import { compileFilter, type FilterRow, type QueryFilter } from "../../common/catalog/query-filter";
import { STAGES } from "../../common/catalog/schema";

/** A row of `history_profiles` for the event, as the evaluation reads it. */
export interface ChangedProfile {
  id: string;
  product_key: string;
  funnel_key: string;
  change: "added" | "changed" | "removed";
  sha256: string | null;
  previous_sha256: string | null;
  grade: string;
  stages: Record<string, string>;
  fields_changed: string[];
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

export interface WatchLists {
  entered: unknown[];
  left: unknown[];
  changed: unknown[];
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
export function watchLists(
  profiles: ChangedProfile[],
  matches: Matcher,
  sides: EventSides | null,
  event: EventReleases,
): WatchLists {
  const lists: WatchLists = { entered: [], left: [], changed: [] };
  const { release, previous } = event;
  for (const profile of profiles) {
    const inNew = profile.change !== "removed" && matches(profile, "new", sides);
    const inOld = profile.change !== "added" && matches(profile, "old", sides);
    if (inNew && !inOld) lists.entered.push(entryOf(profile, release, { previous: false }));
    else if (inOld && !inNew) lists.left.push(entryOf(profile, previous, { current: false }));
    else if (inNew && inOld) lists.changed.push(entryOf(profile, release, {}));
  }
  return lists;
}

function entryOf(profile: ChangedProfile, release: string, sides: { current?: false; previous?: false }) {
  return {
    agent_readiness_profile_id: profile.id,
    product_key: profile.product_key,
    funnel_key: profile.funnel_key,
    ...(sides.current === false || profile.sha256 === null ? {} : { sha256: `sha256:${profile.sha256}` }),
    ...(sides.previous === false || profile.previous_sha256 === null
      ? {}
      : { previous_sha256: `sha256:${profile.previous_sha256}` }),
    grade: profile.grade,
    stages: Object.fromEntries(STAGES.map((stage) => [stage, profile.stages[stage] ?? ""])),
    fields_changed: profile.fields_changed,
    href: `/v1/releases/sha256:${release}/profiles/${profile.id}`,
  };
}
