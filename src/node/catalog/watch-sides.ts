/**
 * What the watches' evaluation reads of one history event (src/node/catalog/watch-record.ts): its
 * changed profiles in keyset pages of bounded size, and for each page both releases' query rows of
 * those profiles and which of them every distinct `q` of the watches matches, one statement per
 * release for all the `q` (FTS5 through the query route's own SQL, query-filter.ts). So the round
 * trips follow the pages of changes, never the watches, and no statement's answer grows unbounded.
 */
import { FILTER_COLUMNS, type FilterRow, matchExpression, wordMatchesOf } from "../../common/catalog/query-filter";
import { STAGES } from "../../common/catalog/schema";
import type { QueryDb, QueryStatement } from "./query-load";
import type { ChangedProfile, EventReleases, EventSides } from "./watch-evaluate";

/** Profiles per page: ~400 bytes each read, ids bound as one JSON array of ~70 KB. */
const PAGE_PROFILES = 2_000;

const CHANGED =
  "SELECT json_group_array(json_object('id', id, 'product_key', product_key, 'funnel_key', funnel_key, 'change', change, " +
  "'sha256', sha256, 'previous_sha256', previous_sha256, 'grade', grade, 'stages', json_object(" +
  STAGES.map((stage) => `'${stage}', stage_${stage}`).join(", ") +
  "), 'fields_changed', json(fields_changed))) AS v FROM (SELECT * FROM history_profiles WHERE event_seq = ? " +
  "AND (product_key, funnel_key, id) > (?, ?, ?) ORDER BY product_key, funnel_key, id LIMIT ?)";
const ROWS =
  `SELECT json_group_object(id, json_object(${FILTER_COLUMNS.map((c) => `'${c}', ${c}`).join(", ")})) AS v ` +
  "FROM query_profiles WHERE release = ? AND id IN (SELECT value FROM json_each(?))";
const LOADED = "SELECT count(*) AS v FROM query_releases WHERE release IN (?, ?)";

export const jsonOf = async <T>(statement: QueryStatement, fallback: T): Promise<T> => {
  const row = await statement.first<{ v: string | number | null }>();
  return typeof row?.v === "string" ? (JSON.parse(row.v) as T) : fallback;
};

/** The event's changed profiles in catalog order, a page at a time. */
export async function* changedPages(db: QueryDb, seq: number): AsyncGenerator<ChangedProfile[]> {
  let after = ["", "", ""];
  for (;;) {
    const page = await jsonOf<ChangedProfile[]>(db.prepare(CHANGED).bind(seq, ...after, PAGE_PROFILES), []);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (!last || page.length < PAGE_PROFILES) return;
    after = [last.product_key, last.funnel_key, last.id];
  }
}

/** Whether both releases have query rows (a release loaded before the query tables has none). */
export async function bothLoaded(db: QueryDb, event: EventReleases): Promise<boolean> {
  const loaded = await db.prepare(LOADED).bind(event.release, event.previous).first<{ v: number }>();
  return loaded?.v === 2;
}

/** Both releases' query rows of a page's profiles and each `q`'s matches among them. */
export async function sidesOf(
  db: QueryDb,
  event: EventReleases,
  qs: string[],
  page: ChangedProfile[],
): Promise<EventSides> {
  const ids = JSON.stringify(page.map((profile) => profile.id));
  const rowsOf = async (release: string) =>
    new Map(Object.entries(await jsonOf<Record<string, FilterRow>>(db.prepare(ROWS).bind(release, ids), {})));
  const textOf = async (release: string) => {
    if (qs.length === 0) return new Map<string, Set<string>>();
    // One row per distinct q: its FTS5 query from the JSON object {q: expression}, matched in turn.
    const words = wordMatchesOf("q.value", [], release);
    const sql =
      "SELECT json_group_object(q.key, json((SELECT json_group_array(id) FROM query_profiles WHERE release = ? " +
      `AND id IN (SELECT value FROM json_each(?)) AND seq IN (${words.text})))) AS v FROM json_each(?) q`;
    const expressions = JSON.stringify(Object.fromEntries(qs.map((q) => [q, matchExpression(q)])));
    const found = await jsonOf<Record<string, string[]>>(
      db.prepare(sql).bind(release, ids, ...words.args, expressions),
      {},
    );
    return new Map(Object.entries(found).map(([q, matching]) => [q, new Set(matching)]));
  };
  return {
    newRows: await rowsOf(event.release),
    oldRows: await rowsOf(event.previous),
    newText: await textOf(event.release),
    oldText: await textOf(event.previous),
  };
}
