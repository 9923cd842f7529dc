/**
 * The D1 load of publish (docs/storage.md, "Catalog query tables"): one row per profile, its text
 * for `q`, the facet counts and the browse lists, in batches, before `current` moves. Each batch is
 * one D1 transaction and rows go in document order, so an interrupted load leaves a prefix; run
 * again, it continues after it. The release's line in `query_releases` is written last: until it
 * is there, the routes do not serve the release's rows.
 */
import { hexOf, type Manifest } from "../../common/catalog/manifest";
import { queryRowOf } from "../../common/catalog/query-fields";
import { FacetCounter } from "./query-facets";
import { BatchRows, insertRows, RELEASE_NUMBER } from "./query-load-rows";
import { placedProfiles, scopeEntries } from "./query-profiles";
import type { ReleaseSource } from "./release-source";

/** The subset of a D1 binding the load uses (D1Database satisfies it). */
export interface QueryDb {
  prepare(query: string): QueryStatement;
  batch(statements: QueryStatement[]): Promise<unknown>;
}
export interface QueryStatement {
  bind(...values: unknown[]): QueryStatement;
  first<T = Record<string, unknown>>(): Promise<T | null>;
}

/**
 * Profiles per D1 batch (one transaction). A batch is a few statements whatever its size
 * (query-load-rows.ts): a few round trips through wrangler's platform proxy, which proxies every
 * `prepare` and `bind`. Large batches: SQLite's work per profile (its 14 indexes, the full-text
 * index's segments, each commit) falls as a transaction holds more rows (docs/performance.md,
 * "D1 load time").
 */
const LOAD_BATCH_PROFILES = 2_000;
/** Rows of a browse list or of the kept counts per statement, and such statements per batch. */
const LIST_STATEMENT_ROWS = 2_000;
const LIST_BATCH_STATEMENTS = 5;

export interface LoadProgress {
  phase: "load";
  index: number;
  count: number;
}

export interface LoadResult {
  /** False when the release was loaded already. */
  loaded: boolean;
  rows: number;
}

const NUMBER_RELEASE =
  "INSERT OR IGNORE INTO query_release_numbers (release, number) " +
  "SELECT ?, coalesce(max(number), 0) + 1 FROM query_release_numbers";
const INSERT_PRODUCTS = insertRows("INSERT OR REPLACE", "query_products", [
  "product_key",
  "name",
  "lower_name",
  "funnel_count",
]);
const INSERT_FUNNELS = insertRows("INSERT OR REPLACE", "query_funnels", ["funnel_key", "name", "profile_count"]);
const INSERT_FACETS = insertRows("INSERT OR REPLACE", "query_facets", [
  "filter",
  "filter_value",
  "facet",
  "value",
  "count",
]);

/** `rows` cut into statements of at most LIST_STATEMENT_ROWS rows. */
function chunksOf(sql: string, rows: unknown[][]): [string, unknown[][]][] {
  const chunks: [string, unknown[][]][] = [];
  for (let from = 0; from < rows.length; from += LIST_STATEMENT_ROWS)
    chunks.push([sql, rows.slice(from, from + LIST_STATEMENT_ROWS)]);
  return chunks;
}

interface LoadOptions {
  onProgress?: (progress: LoadProgress) => void;
  /** Profiles per batch, LOAD_BATCH_PROFILES unless given (tests stop a small load midway). */
  batchProfiles?: number;
}

export async function loadQueryTables(
  db: QueryDb,
  manifest: Manifest,
  source: ReleaseSource,
  { onProgress, batchProfiles = LOAD_BATCH_PROFILES }: LoadOptions = {},
): Promise<LoadResult> {
  const release = hexOf(manifest.release_id);
  const done = await db.prepare("SELECT 1 AS done FROM query_releases WHERE release = ?").bind(release).first();
  if (done) return { loaded: false, rows: manifest.profile_count };

  const already =
    (
      await db
        .prepare("SELECT count(*) AS n FROM query_profiles WHERE release = ?")
        .bind(release)
        .first<{ n: number }>()
    )?.n ?? 0;
  // A load begun before release numbers (migrations/0003) finishes as it began, in `query_text`.
  const numbered =
    already === 0 ||
    (await db.prepare("SELECT 1 AS found FROM query_release_numbers WHERE release = ?").bind(release).first()) !== null;
  const entries = await scopeEntries(manifest, source);
  const batches = Math.ceil(entries.length / batchProfiles);
  const facets = new FacetCounter();
  const products = new Map<string, { name: string; funnels: number }>();
  const funnels = new Map<string, { name: string; profiles: number }>();
  let pending = new BatchRows();
  let position = 0;
  // One batch in flight while the next is read, parsed and bound: D1 (workerd, another process)
  // and Node work at once. Each batch is sent only once the one before it is committed, so the
  // rows in D1 stay a prefix of the document.
  let inFlight: Promise<void> | undefined;
  const flush = async () => {
    if (pending.size === 0) return;
    const statements = [
      // The release's number for `query_words`: given by its first batch, kept by the others.
      ...(numbered ? [db.prepare(NUMBER_RELEASE).bind(release)] : []),
      ...pending.statements(numbered).map(({ sql, rows }) => db.prepare(sql).bind(release, rows)),
    ];
    const index = Math.floor((position - 1) / batchProfiles);
    pending = new BatchRows();
    await inFlight;
    inFlight = db.batch(statements).then(() => onProgress?.({ phase: "load", index, count: batches }));
    inFlight.catch(() => {}); // awaited before the next batch or after the last: not unhandled meanwhile
  };
  for await (const placed of placedProfiles(manifest, source, entries)) {
    const row = queryRowOf(placed.profile);
    facets.add(row);
    tally(products, row.product_key, row.product_name, "funnels");
    tally(funnels, row.funnel_key, row.funnel_name, "profiles");
    // Document order is the load's order: the first `already` profiles are in from an earlier run.
    if (position++ >= already) pending.add(placed, row);
    if (pending.size === batchProfiles) await flush();
  }
  await flush();
  await inFlight;

  // The browse lists and the kept counts, each table's rows as bound JSON arrays of at most
  // LIST_STATEMENT_ROWS rows (one statement each), a few statements per batch.
  const lists = [
    ...chunksOf(
      INSERT_PRODUCTS,
      [...products].map(([key, p]) => [key, p.name, p.name.toLowerCase(), p.funnels]),
    ),
    ...chunksOf(
      INSERT_FUNNELS,
      [...funnels].map(([key, f]) => [key, f.name, f.profiles]),
    ),
    ...chunksOf(
      INSERT_FACETS,
      Array.from(facets.counts(), (c) => [c.filter, c.filter_value, c.facet, c.value, c.count]),
    ),
  ];
  for (let from = 0; from < lists.length; from += LIST_BATCH_STATEMENTS)
    await db.batch(
      lists
        .slice(from, from + LIST_BATCH_STATEMENTS)
        .map(([sql, rows]) => db.prepare(sql).bind(release, JSON.stringify(rows))),
    );
  // The planner's statistics (sqlite_stat1, bounded work): without them SQLite walks the whole
  // release in primary-key order for a selective filter rather than read that filter's index.
  await db.batch([db.prepare("PRAGMA optimize")]);
  await db.batch([
    db
      // OR IGNORE: a concurrent load of the same release (or a retried batch) may have written it.
      .prepare("INSERT OR IGNORE INTO query_releases VALUES (?, ?, ?, ?)")
      .bind(release, entries.length, products.size, new Date().toISOString()),
  ]);
  return { loaded: true, rows: entries.length };
}

function tally<K extends string>(
  map: Map<string, { name: string } & Record<K, number>>,
  key: string,
  name: string,
  counter: K,
) {
  const entry = map.get(key);
  if (entry) entry[counter]++;
  else map.set(key, { name, [counter]: 1 } as { name: string } & Record<K, number>);
}

/**
 * Deletes the query rows of releases no longer kept (neither current nor one of its kept previous
 * releases), a bounded batch at a time. Their pinned profile and part URLs keep working; only their
 * queries stop (release_not_queryable).
 */
export async function pruneQueryTables(db: QueryDb, kept: readonly string[]): Promise<string[]> {
  const keep = new Set(kept.map(hexOf));
  const listed = await db.prepare("SELECT json_group_array(release) AS releases FROM query_releases").first<{
    releases: string;
  }>();
  const pruned = (JSON.parse(listed?.releases ?? "[]") as string[]).filter((release) => !keep.has(release));
  for (const release of pruned) {
    // The release's line goes first: from then on no route reads the rows being deleted.
    await db.batch([db.prepare("DELETE FROM query_releases WHERE release = ?").bind(release)]);
    await db.batch([
      ...["query_profiles", "query_text", "query_bodies", "query_facets", "query_products", "query_funnels"].map(
        (table) => db.prepare(`DELETE FROM ${table} WHERE release = ?`).bind(release),
      ),
      db
        .prepare(
          `DELETE FROM query_words WHERE rowid BETWEEN ${RELEASE_NUMBER} * 4294967296 AND ${RELEASE_NUMBER} * 4294967296 + 4294967295`,
        )
        .bind(release),
      db.prepare("DELETE FROM query_release_numbers WHERE release = ?").bind(release),
    ]);
  }
  return pruned;
}
