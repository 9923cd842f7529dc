/** Reading a watch's events and the full lists of one event (D1, written at publish). */
import { parseStoredJson } from "../http/stored-json";
import { EVENT_LIST_CAP, WatchEntry, type WatchEvent, type WatchListName } from "./event-schemas";

interface EventRow {
  id: string;
  watch_id: string;
  watch_name: string;
  event_seq: number;
  at: string;
  release: string;
  previous_release: string | null;
  entered_count: number;
  left_count: number;
  changed_count: number;
  /** Where its lists are: shared by the events of watches with the same predicate (migrations/0007). */
  lists_id: string;
}

const EVENT_COLUMNS =
  "e.id, e.watch_id, w.name AS watch_name, e.event_seq, e.at, e.release, e.previous_release, e.entered_count, e.left_count, e.changed_count, e.lists_id";

/** The watch's events newest first, before history event `before` (exclusive), `limit` of them. */
export async function eventsOf(
  db: D1Database,
  watchId: string,
  limit: number,
  before = Number.MAX_SAFE_INTEGER,
): Promise<(WatchEvent & { seq: number })[]> {
  const { results } = await db
    .prepare(
      `SELECT ${EVENT_COLUMNS} FROM watch_events e JOIN watches w ON w.id = e.watch_id ` +
        "WHERE e.watch_id = ? AND e.event_seq < ? ORDER BY e.event_seq DESC LIMIT ?",
    )
    .bind(watchId, before, limit)
    .all<EventRow>();
  return withEntries(db, results);
}

/** Events written after place `after` (their rowid, in the order written), with their watch's account. */
export async function eventsWrittenAfter(
  db: D1Database,
  after: number,
  limit: number,
): Promise<{ place: number; accountId: string; event: WatchEvent }[]> {
  const { results } = await db
    .prepare(
      `SELECT e.rowid AS place, w.account_id, ${EVENT_COLUMNS} FROM watch_events e JOIN watches w ON w.id = e.watch_id ` +
        "WHERE e.rowid > ? ORDER BY e.rowid LIMIT ?",
    )
    .bind(after, limit)
    .all<EventRow & { place: number; account_id: string }>();
  const events = await withEntries(db, results);
  return results.map((row, i) => {
    const { seq: _, ...event } = events[i] as WatchEvent & { seq: number };
    return { place: row.place, accountId: row.account_id, event };
  });
}

/** Where the events written so far end: the next one written is after it. */
export async function lastEventPlace(db: D1Database): Promise<number> {
  const row = await db.prepare("SELECT coalesce(max(rowid), 0) AS n FROM watch_events").first<{ n: number }>();
  return row?.n ?? 0;
}

/** One event of the watch, or null. */
export async function eventOf(db: D1Database, watchId: string, eventId: string): Promise<WatchEvent | null> {
  const row = await db
    .prepare(
      `SELECT ${EVENT_COLUMNS} FROM watch_events e JOIN watches w ON w.id = e.watch_id WHERE e.watch_id = ? AND e.id = ?`,
    )
    .bind(watchId, eventId)
    .first<EventRow>();
  return row ? ((await withEntries(db, [row]))[0] ?? null) : null;
}

/** Each event with the first EVENT_LIST_CAP entries of each list, read in one statement. */
async function withEntries(db: D1Database, rows: EventRow[]): Promise<(WatchEvent & { seq: number })[]> {
  if (rows.length === 0) return [];
  const { results } = await db
    .prepare(
      "SELECT lists_id, list, entry FROM watch_event_profiles WHERE lists_id IN (SELECT value FROM json_each(?)) " +
        "AND ord < ? ORDER BY lists_id, list, ord",
    )
    .bind(JSON.stringify([...new Set(rows.map((row) => row.lists_id))]), EVENT_LIST_CAP)
    .all<{ lists_id: string; list: WatchListName; entry: string }>();
  return rows.map((row) => {
    const lists = { entered: [] as WatchEntry[], left: [] as WatchEntry[], changed: [] as WatchEntry[] };
    for (const entry of results.filter((candidate) => candidate.lists_id === row.lists_id)) {
      const parsed = parseStoredJson(entry.entry, WatchEntry, "watch event entry");
      if (parsed) lists[entry.list].push(parsed);
    }
    return {
      object: "watch_event" as const,
      id: row.id,
      watch_id: row.watch_id,
      watch_name: row.watch_name,
      at: row.at,
      release_id: `sha256:${row.release}`,
      previous_release_id: row.previous_release === null ? null : `sha256:${row.previous_release}`,
      ...lists,
      entered_count: row.entered_count,
      left_count: row.left_count,
      changed_count: row.changed_count,
      seq: row.event_seq,
    };
  });
}

/** One list of an event, in catalog order, from place `from`. */
export async function entriesOf(
  db: D1Database,
  eventId: string,
  list: WatchListName,
  from: number,
  limit: number,
): Promise<{ entries: WatchEntry[]; ords: number[] }> {
  const { results } = await db
    .prepare(
      "SELECT ord, entry FROM watch_event_profiles WHERE lists_id = (SELECT lists_id FROM watch_events WHERE id = ?) " +
        "AND list = ? AND ord >= ? ORDER BY ord LIMIT ?",
    )
    .bind(eventId, list, from, limit)
    .all<{ ord: number; entry: string }>();
  const entries = results.map((row) => parseStoredJson(row.entry, WatchEntry, "watch event entry"));
  return {
    entries: entries.filter((entry) => entry !== null),
    ords: results.map((row) => row.ord),
  };
}
