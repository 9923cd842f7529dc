/**
 * How two releases differ, counted (docs/history.md): from the profile history alone
 * (history-pair.ts), so any two releases the history knows compare, kept or pruned. Two releases
 * made current one event apart (a publish or rollback and the release it replaced) are that
 * event's own summary, written with its line (migrations/0008): one row read. Any other pair is
 * counted from the rows. The REST route, the MCP tool `compare_releases` and the explorer's "What
 * changed" page all read it here.
 */
import {
  countChange,
  noChanges,
  RATED_FIELDS,
  type ChangeCounts,
  type RatedValues,
} from "../../../common/catalog/history-fields";
import { comparedProfiles, eventsOf, pairOf, type SideState } from "./history-pair";

export interface ChangesSummaryView extends ChangeCounts {
  release_id: string;
  since: string;
}

/**
 * The summary of `releaseId` (default: the current release) since `since`, either id with or
 * without `sha256:`. Misses: no_release before the first publish, release_not_in_history naming
 * the side the history does not know.
 */
export async function compareReleases(
  env: Env,
  asked: { releaseId?: string; since: string },
): Promise<ChangesSummaryView> {
  const pair = await pairOf(env, asked);
  const events = await eventsOf(env.CATALOG_DB, pair);
  const [atRelease, atSince] = events;
  let counts = atRelease === atSince + 1 ? await eventSummary(env.CATALOG_DB, atRelease) : null;
  if (!counts) {
    counts = noChanges();
    for (const profile of await comparedProfiles(env, pair, events))
      countChange(counts, ratedOf(profile.before), ratedOf(profile.after));
  }
  return { ...pair, ...counts, transitions: sortedTransitions(counts.transitions) };
}

/** What event `seq` changed against the release before it, as written with its line; null before migrations/0008. */
async function eventSummary(db: D1Database, seq: number): Promise<ChangeCounts | null> {
  const row = await db
    .prepare("SELECT summary FROM history_events WHERE seq = ?")
    .bind(seq)
    .first<{ summary: string | null }>();
  return row?.summary ? (JSON.parse(row.summary) as ChangeCounts) : null;
}

const ratedOf = (side: SideState | null): RatedValues | null =>
  side && RATED_FIELDS.map((field) => side.values[field.name] ?? "");

/** Each field's transitions, largest first, ties by key: the same answer every time. */
function sortedTransitions(transitions: ChangeCounts["transitions"]): ChangeCounts["transitions"] {
  return Object.fromEntries(
    Object.entries(transitions).map(([name, counts]) => [
      name,
      Object.fromEntries(Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))),
    ]),
  );
}
