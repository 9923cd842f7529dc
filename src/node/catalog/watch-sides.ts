/**
 * What the watches' evaluation reads of one history event (src/node/catalog/watch-record.ts): its
 * changed profiles in keyset pages of bounded size, and for each page both releases' query rows of
 * those profiles and which of them every distinct `q` of the watches matches, one statement per
 * release for up to 14 `q` (FTS5 through the query route's own SQL, query-filter.ts). So the round
 * trips follow the pages of changes, never the watches, and no statement's answer grows unbounded.
 */
import { FILTER_COLUMNS, type FilterRow, wordMatchesSql } from "../../common/catalog/query-filter";
import type { QueryDb, QueryStatement } from "./query-load";
import type { ChangedProfile, EventReleases, EventSides } from "./watch-evaluate";

/** Profiles per page: ~120 bytes each read, ids bound as one JSON array of ~70 KB. */
const PAGE_PROFILES = 2_000;

const CHANGED =
  "SELECT json_group_array(json_object('id', id, 'product_key', product_key, 'funnel_key', funnel_key, 'change', change)) AS v " +
  "FROM (SELECT * FROM history_profiles WHERE event_seq = ? " +
  "AND (product_key, funnel_key, id) > (?, ?, ?) ORDER BY product_key, funnel_key, id LIMIT ?)";
const ROWS =
  `SELECT json_group_object(id, json_object(${FILTER_COLUMNS.map((c) => `'${c}', ${c}`).join(", ")})) AS v ` +
  "FROM query_profiles WHERE release = ? AND id IN (SELECT value FROM json_each(?))";
const LOADED = "SELECT count(*) AS v FROM query_releases WHERE release IN (?, ?)";

/** Each `q` binds 6 values: 14 of them and the page's 2 stay within D1's 100 per statement. */
const QS_PER_STATEMENT = 14;

/**
 * Which of the page's profiles each `q` matches in `release`: an array of one id list per `q`, each
 * its own uncorrelated subquery (so SQLite runs each FTS5 match once, not once per profile of the
 * page), as columns of one row (D1 refuses a compound SELECT of many terms).
 */
function textStatement(release: string, ids: string, qs: string[]): { sql: string; args: unknown[] } {
  const args: unknown[] = [release, ids];
  const lists = qs.map((q) => {
    const words = wordMatchesSql(release, q);
    args.push(...words.args);
    return `json((SELECT json_group_array(id) FROM page WHERE seq IN (${words.text})))`;
  });
  const sql =
    "WITH page(id, seq) AS (SELECT id, seq FROM query_profiles WHERE release = ? AND id IN (SELECT value FROM json_each(?))) " +
    `SELECT json_array(${lists.join(", ")}) AS v`;
  return { sql, args };
}

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
    const found = new Map<string, Set<string>>();
    for (let i = 0; i < qs.length; i += QS_PER_STATEMENT) {
      const some = qs.slice(i, i + QS_PER_STATEMENT);
      const { sql, args } = textStatement(release, ids, some);
      const matches = await jsonOf<string[][]>(db.prepare(sql).bind(...args), []);
      for (const [j, q] of some.entries()) found.set(q, new Set(matches[j] ?? []));
    }
    return found;
  };
  return {
    newRows: await rowsOf(event.release),
    oldRows: await rowsOf(event.previous),
    newText: await textOf(event.release),
    oldText: await textOf(event.previous),
  };
}
