/**
 * Watch events (D1, migrations/0006 and 0007; docs/history.md "Watches"), written by publish and
 * rollback right after the profile history: for every history event not yet evaluated, oldest
 * first, the watches created before it are grouped by predicate (their filter or profiles) and each
 * distinct predicate is evaluated once against the event's history rows (only the profiles whose
 * bytes changed, a page at a time: watch-sides.ts). A predicate that caught something has its
 * lists written once, under an id of its own; each of its watches gets one event pointing at them.
 * Events are derived from the history, their ids from (watch, history event), the lists' from
 * (predicate, history event), and every write is INSERT OR IGNORE; the event's evaluation mark
 * goes in last. So an interrupted run leaves nothing twice and the next publish, rollback or a
 * rerun finishes it.
 */
import { createHash } from "node:crypto";
import { STAGES } from "../../common/catalog/schema";
import type { QueryDb, QueryStatement } from "./query-load";
import { type EventReleases, matcherOf, type WatchLists, watchLists } from "./watch-evaluate";
import { bothLoaded, changedPages, jsonOf, sidesOf } from "./watch-sides";
import { type PredicateGroup, watchGroups } from "./watch-groups";

/** Events are kept at least this long (docs/history.md): older ones go at a later evaluation. */
export const WATCH_EVENT_DAYS = 90;
/** Rows per INSERT statement: ~100 bytes an entry, ~270 an event line: ~1 MB at most, under D1's 2 MB a value. */
const ROWS_PER_STATEMENT = 4_000;
const BATCH_STATEMENTS = 10;
const LISTS = ["entered", "left", "changed"] as const;

interface HistoryEvent {
  seq: number;
  release: string;
  previous_release: string | null;
  at: string;
}

const PENDING =
  "SELECT json_group_array(json_object('seq', seq, 'release', release, 'previous_release', previous_release, 'at', at)) AS v " +
  "FROM (SELECT * FROM history_events WHERE seq > coalesce((SELECT max(event_seq) FROM watch_evaluations), -1) ORDER BY seq)";
const fromJsonRows = (columns: number) =>
  `SELECT ${Array.from({ length: columns }, (_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?)`;
/** Rows bound as one JSON array per statement; a row of a watch deleted meanwhile is not written. */
const INSERT_EVENTS =
  "INSERT OR IGNORE INTO watch_events (id, watch_id, event_seq, at, release, previous_release, lists_id, entered_count, left_count, changed_count) " +
  `${fromJsonRows(10)} WHERE EXISTS (SELECT 1 FROM watches WHERE id = json_extract(value, '$[1]'))`;
/**
 * An entry (docs/history.md "Watches") made in SQL from the profile's history row at the event: the
 * evaluation sends each list's ids only, not ~500 bytes of JSON per entry. `sha256` is absent for
 * `left`, `previous_sha256` for `entered` (a merge patch's null removes the key, RFC 7396 §2);
 * `href` pins the release the profile is in (the previous one for `left`).
 */
const INSERT_ENTRIES =
  "INSERT OR IGNORE INTO watch_event_profiles (lists_id, list, ord, entry) SELECT l.lists_id, l.list, l.ord, json_patch(" +
  "json_object('agent_readiness_profile_id', h.id, 'product_key', h.product_key, 'funnel_key', h.funnel_key, 'grade', h.grade, " +
  `'stages', json_object(${STAGES.map((stage) => `'${stage}', h.stage_${stage}`).join(", ")}), ` +
  "'fields_changed', json(h.fields_changed), 'href', '/v1/releases/sha256:' || " +
  "(CASE l.list WHEN 'left' THEN ?3 ELSE ?2 END) || '/profiles/' || h.id), " +
  "json_object('sha256', CASE WHEN l.list <> 'left' THEN 'sha256:' || h.sha256 END, " +
  "'previous_sha256', CASE WHEN l.list <> 'entered' THEN 'sha256:' || h.previous_sha256 END)) " +
  "FROM (SELECT json_extract(value, '$[0]') AS lists_id, json_extract(value, '$[1]') AS list, " +
  "json_extract(value, '$[2]') AS ord, json_extract(value, '$[3]') AS id FROM json_each(?1)) l " +
  "JOIN history_profiles h ON h.id = l.id AND h.event_seq = ?4";
/** Lists no event points at: every watch of their predicate was deleted during the evaluation. */
const DROP_UNUSED_LISTS =
  "DELETE FROM watch_event_profiles WHERE lists_id IN (SELECT value FROM json_each(?)) " +
  "AND NOT EXISTS (SELECT 1 FROM watch_events e WHERE e.lists_id = watch_event_profiles.lists_id)";
const MARK = "INSERT OR IGNORE INTO watch_evaluations (event_seq, evaluated_at) VALUES (?, ?)";
const PRUNE_ENTRIES =
  "DELETE FROM watch_event_profiles WHERE lists_id IN (SELECT lists_id FROM watch_events WHERE at < ?)";
const PRUNE_EVENTS = "DELETE FROM watch_events WHERE at < ?";

/** Brings the watch events up to the D1 history. */
export async function recordWatchEvents(storage: { db: QueryDb }, now = new Date()): Promise<void> {
  const { db } = storage;
  // No watch, nothing to do or mark: the events since the last mark are looked at when one exists.
  if (!(await db.prepare("SELECT 1 AS v FROM watches LIMIT 1").first())) return;
  const pending = await jsonOf<HistoryEvent[]>(db.prepare(PENDING), []);
  for (const event of pending) {
    // The first release of the history has nothing before it to enter from or leave to.
    const previous = event.previous_release;
    const groups = previous === null ? [] : await watchGroups(db, event.at, event.seq);
    const written =
      previous !== null && groups.length > 0
        ? await evaluateEvent(db, event, { release: event.release, previous }, groups)
        : [];
    const cutoff = new Date(now.getTime() - WATCH_EVENT_DAYS * 86_400_000).toISOString();
    await db.batch([
      db.prepare(DROP_UNUSED_LISTS).bind(JSON.stringify(written)),
      db.prepare(PRUNE_ENTRIES).bind(cutoff),
      db.prepare(PRUNE_EVENTS).bind(cutoff),
      db.prepare(MARK).bind(event.seq, now.toISOString()),
    ]);
  }
}

/** Writes the event's lists, then its watch events; answers the ids of the lists written. */
async function evaluateEvent(
  db: QueryDb,
  event: HistoryEvent,
  releases: EventReleases,
  groups: PredicateGroup[],
): Promise<string[]> {
  const evaluated = groups.map((group) => ({ group, matches: matcherOf(group.predicate), counts: zeroCounts() }));
  const qs = [...new Set(groups.flatMap((group) => group.predicate.filter?.q ?? []))];
  const loaded = groups.some((group) => group.predicate.filter) && (await bothLoaded(db, releases));
  for await (const page of changedPages(db, event.seq)) {
    const sides = loaded ? await sidesOf(db, releases, qs, page) : null;
    const entries = evaluated.flatMap(({ group, matches, counts }) =>
      entryRows(group.listsId, watchLists(page, matches, sides), counts),
    );
    await writeRows(db, INSERT_ENTRIES, entries, [releases.release, releases.previous, event.seq]);
  }
  // Every list first, then the events' lines: a reader sees an event only with all of its entries.
  const triggered = evaluated.filter(({ counts }) => counts.entered + counts.left + counts.changed > 0);
  const events = triggered.flatMap(({ group, counts }) =>
    group.watchIds.map((id) => [
      watchEventId(id, event.seq),
      id,
      event.seq,
      event.at,
      event.release,
      event.previous_release,
      group.listsId,
      counts.entered,
      counts.left,
      counts.changed,
    ]),
  );
  await writeRows(db, INSERT_EVENTS, events);
  return triggered.map(({ group }) => group.listsId);
}

type Counts = Record<keyof WatchLists, number>;
const zeroCounts = (): Counts => ({ entered: 0, left: 0, changed: 0 });

/** A page's entries of one predicate, placed after those of the pages before (`counts`, updated). */
function entryRows(listsId: string, lists: WatchLists, counts: Counts): unknown[][] {
  return LISTS.flatMap((list) => {
    const start = counts[list];
    counts[list] += lists[list].length;
    return lists[list].map((id, i) => [listsId, list, start + i, id]);
  });
}

/** Rows in statements of ROWS_PER_STATEMENT (and the `args` after them), BATCH_STATEMENTS per D1 batch. */
async function writeRows(db: QueryDb, sql: string, rows: unknown[][], args: unknown[] = []): Promise<void> {
  const statements: QueryStatement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
    statements.push(db.prepare(sql).bind(JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT)), ...args));
  for (let i = 0; i < statements.length; i += BATCH_STATEMENTS)
    await db.batch(statements.slice(i, i + BATCH_STATEMENTS));
}

/** The id of a watch's event at a history event: the same on every run. */
export const watchEventId = (watchId: string, seq: number) =>
  `wev_${createHash("sha256").update(`${watchId}:${seq}`).digest("hex").slice(0, 32)}`;
