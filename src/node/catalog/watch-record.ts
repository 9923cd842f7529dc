/**
 * Watch events (D1, migrations/0006; docs/history.md "Watches"), written by publish and rollback
 * right after the profile history: for every history event not yet evaluated, oldest first, every
 * watch created before it is evaluated against the event's history rows (only the profiles whose
 * bytes changed), and each watch that caught something gets one event. Events are derived from the
 * history, their ids from (watch, history event), and every write is INSERT OR IGNORE; the event's
 * evaluation mark goes in last. So an interrupted run leaves nothing twice and the next publish,
 * rollback or a rerun finishes it.
 */
import { createHash } from "node:crypto";
import { FILTER_COLUMNS, type FilterRow, wordMatchesSql } from "../../common/catalog/query-filter";
import { STAGES } from "../../common/catalog/schema";
import type { QueryDb, QueryStatement } from "./query-load";
import {
  type ChangedProfile,
  type EventSides,
  matcherOf,
  type WatchDefinition,
  type WatchLists,
  watchLists,
} from "./watch-evaluate";

/** Events are kept at least this long (docs/history.md): older ones go at a later evaluation. */
export const WATCH_EVENT_DAYS = 90;
/** Rows per INSERT statement: ~500 bytes each, well under D1's 1 MB statement. */
const ROWS_PER_STATEMENT = 1_000;
const BATCH_STATEMENTS = 10;

interface HistoryEvent {
  seq: number;
  release: string;
  previous_release: string | null;
  at: string;
}

const PENDING =
  "SELECT json_group_array(json_object('seq', seq, 'release', release, 'previous_release', previous_release, 'at', at)) AS v " +
  "FROM (SELECT * FROM history_events WHERE seq > coalesce((SELECT max(event_seq) FROM watch_evaluations), -1) ORDER BY seq)";
const WATCHES =
  "SELECT json_group_array(json_object('id', id, 'name', name, 'account_id', account_id, 'filter', json(filter), " +
  "'profiles', json(profiles))) AS v FROM (SELECT * FROM watches WHERE created_at < ? ORDER BY id)";
const CHANGED =
  "SELECT json_group_array(json_object('id', id, 'product_key', product_key, 'funnel_key', funnel_key, 'change', change, " +
  "'sha256', sha256, 'previous_sha256', previous_sha256, 'grade', grade, 'stages', json_object(" +
  STAGES.map((stage) => `'${stage}', stage_${stage}`).join(", ") +
  "), 'fields_changed', json(fields_changed))) AS v FROM (SELECT * FROM history_profiles WHERE event_seq = ? " +
  "ORDER BY product_key, funnel_key, id)";
const ROWS =
  `SELECT json_group_object(id, json_object(${FILTER_COLUMNS.map((c) => `'${c}', ${c}`).join(", ")})) AS v ` +
  "FROM query_profiles WHERE release = ? AND id IN (SELECT value FROM json_each(?))";
const LOADED = "SELECT count(*) AS v FROM query_releases WHERE release IN (?, ?)";
/** Rows bound as one JSON array per statement; a row of a watch deleted meanwhile is not written. */
const INSERT_EVENTS =
  "INSERT OR IGNORE INTO watch_events (id, watch_id, event_seq, at, release, previous_release, entered_count, left_count, changed_count) " +
  `SELECT ${Array.from({ length: 9 }, (_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?) ` +
  "WHERE EXISTS (SELECT 1 FROM watches WHERE id = json_extract(value, '$[1]'))";
const INSERT_ENTRIES =
  "INSERT OR IGNORE INTO watch_event_profiles (event_id, list, ord, entry) SELECT json_extract(value, '$[0]'), " +
  "json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') FROM json_each(?) " +
  "WHERE EXISTS (SELECT 1 FROM watches WHERE id = json_extract(value, '$[4]'))";
const MARK = "INSERT OR IGNORE INTO watch_evaluations (event_seq, evaluated_at) VALUES (?, ?)";
const PRUNE_ENTRIES = "DELETE FROM watch_event_profiles WHERE event_id IN (SELECT id FROM watch_events WHERE at < ?)";
const PRUNE_EVENTS = "DELETE FROM watch_events WHERE at < ?";

const json = async <T>(statement: QueryStatement, fallback: T): Promise<T> => {
  const row = await statement.first<{ v: string | number | null }>();
  return typeof row?.v === "string" ? (JSON.parse(row.v) as T) : fallback;
};

/** Brings the watch events up to the D1 history. */
export async function recordWatchEvents(storage: { db: QueryDb }, now = new Date()): Promise<void> {
  const { db } = storage;
  // No watch, nothing to do or mark: the events since the last mark are looked at when one exists.
  if (!(await db.prepare("SELECT 1 AS v FROM watches LIMIT 1").first())) return;
  const pending = await json<HistoryEvent[]>(db.prepare(PENDING), []);
  for (const event of pending) {
    const watches = await json<WatchDefinition[]>(db.prepare(WATCHES).bind(event.at), []);
    if (watches.length > 0 && event.previous_release !== null) await evaluateEvent(db, event, watches);
    const cutoff = new Date(now.getTime() - WATCH_EVENT_DAYS * 86_400_000).toISOString();
    await db.batch([
      db.prepare(PRUNE_ENTRIES).bind(cutoff),
      db.prepare(PRUNE_EVENTS).bind(cutoff),
      db.prepare(MARK).bind(event.seq, now.toISOString()),
    ]);
  }
}

async function evaluateEvent(db: QueryDb, event: HistoryEvent, watches: WatchDefinition[]): Promise<void> {
  const previous = event.previous_release ?? "";
  const changed = await json<ChangedProfile[]>(db.prepare(CHANGED).bind(event.seq), []);
  if (changed.length === 0) return;
  const sides = watches.some((watch) => watch.filter) ? await sidesOf(db, event, watches, changed) : null;
  const events: unknown[][] = [];
  const entries: unknown[][] = [];
  for (const watch of watches) {
    const matches = matcherOf(watch, sides);
    if (!matches) continue;
    const lists = watchLists(changed, matches, event.release, previous);
    if (lists.entered.length + lists.left.length + lists.changed.length > 0) {
      const rows = eventRows(event, watch, lists);
      events.push(rows.event);
      entries.push(...rows.entries);
    }
  }
  // Every entry first, then the events' lines: a reader sees an event only with all of its entries.
  await writeRows(db, INSERT_ENTRIES, entries);
  await writeRows(db, INSERT_EVENTS, events);
}

/** Rows in statements of ROWS_PER_STATEMENT, BATCH_STATEMENTS statements per D1 batch. */
async function writeRows(db: QueryDb, sql: string, rows: unknown[][]): Promise<void> {
  const statements: QueryStatement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
    statements.push(db.prepare(sql).bind(JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT))));
  for (let i = 0; i < statements.length; i += BATCH_STATEMENTS)
    await db.batch(statements.slice(i, i + BATCH_STATEMENTS));
}

/** Both releases' query rows of the changed profiles and each `q`'s matches among them; null when a side has no rows. */
async function sidesOf(
  db: QueryDb,
  event: HistoryEvent,
  watches: WatchDefinition[],
  changed: ChangedProfile[],
): Promise<EventSides | null> {
  const previous = event.previous_release ?? "";
  const loaded = await db.prepare(LOADED).bind(event.release, previous).first<{ v: number }>();
  if (loaded?.v !== 2) return null;
  const ids = JSON.stringify(changed.map((profile) => profile.id));
  const rowsOf = async (release: string) =>
    new Map(Object.entries(await json<Record<string, FilterRow>>(db.prepare(ROWS).bind(release, ids), {})));
  const qs = [...new Set(watches.flatMap((watch) => (watch.filter?.q === undefined ? [] : [watch.filter.q])))];
  const textOf = async (release: string) => {
    const found = new Map<string, Set<string>>();
    for (const q of qs) {
      const words = wordMatchesSql(release, q);
      const sql = `SELECT json_group_array(id) AS v FROM query_profiles WHERE release = ? AND id IN (SELECT value FROM json_each(?)) AND seq IN (${words.text})`;
      found.set(q, new Set(await json<string[]>(db.prepare(sql).bind(release, ids, ...words.args), [])));
    }
    return found;
  };
  return {
    release: event.release,
    previousRelease: previous,
    newRows: await rowsOf(event.release),
    oldRows: await rowsOf(previous),
    newText: await textOf(event.release),
    oldText: await textOf(previous),
  };
}

/** The id of a watch's event at a history event: the same on every run. */
export const watchEventId = (watchId: string, seq: number) =>
  `wev_${createHash("sha256").update(`${watchId}:${seq}`).digest("hex").slice(0, 32)}`;

function eventRows(event: HistoryEvent, watch: WatchDefinition, lists: WatchLists) {
  const id = watchEventId(watch.id, event.seq);
  const entries = (["entered", "left", "changed"] as const).flatMap((list) =>
    lists[list].map((entry, ord) => [id, list, ord, JSON.stringify(entry), watch.id]),
  );
  const counts = [lists.entered.length, lists.left.length, lists.changed.length];
  return { entries, event: [id, watch.id, event.seq, event.at, event.release, event.previous_release, ...counts] };
}
