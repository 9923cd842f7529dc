/**
 * The D1 load of publish (docs/storage.md, "Catalog query tables"): one row per profile, its text
 * for `q`, the facet counts and the browse lists, in batches, before `current` moves. Each batch is
 * one D1 transaction and rows go in document order, so an interrupted load leaves a prefix; run
 * again, it continues after it. The release's line in `query_releases` is written last: until it
 * is there, the routes do not serve the release's rows.
 */
import { hexOf, type Manifest } from "../../common/catalog/manifest";
import { queryRowOf, type QueryRow } from "../../common/catalog/query-fields";
import { STAGES } from "../../common/catalog/schema";
import { FacetCounter } from "./query-facets";
import { placedProfiles, scopeEntries, type PlacedProfile } from "./query-profiles";
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
 * Profiles per D1 batch (one transaction). Each table's rows go in as bound JSON arrays
 * (`INSERT … SELECT … FROM json_each(?)`), so a batch is a few statements whatever its size: a few
 * round trips through wrangler's platform proxy (which proxies every `prepare` and `bind`), within
 * D1's 100 parameters per statement. Large batches: SQLite's work per profile (its 14 indexes, the
 * full-text index's segments, each commit) falls as a transaction holds more rows
 * (docs/performance.md, "D1 load time").
 */
const LOAD_BATCH_PROFILES = 2_000;
/** At most this many bytes of JSON per bound array (D1: 2 MB per value). */
const STATEMENT_BYTES = 1_000_000;
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

const PROFILE_COLUMNS = [
  "release",
  "seq",
  "id",
  "product_key",
  "product_name",
  "funnel_key",
  "funnel_name",
  "entity",
  "grade",
  "grade_rank",
  "overall_outcome",
  "public_state",
  ...STAGES.map((stage) => `stage_${stage}`),
  "primary_stage",
  ...STAGES.map((stage) => `signal_${stage}`),
  "coverage_status",
  "freshness",
  "lifecycle",
  "visibility",
  "last_tested_at",
  "byte_offset",
  "byte_length",
  "sha256",
];
/** An INSERT of every row of one bound JSON array of arrays (the release is the first parameter). */
const insertRows = (verb: string, table: string, columns: string[]) =>
  `${verb} INTO ${table} (release, ${columns.join(", ")}) SELECT ?, ` +
  `${columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?)`;
const INSERT_PROFILES = insertRows("INSERT OR REPLACE", "query_profiles", PROFILE_COLUMNS.slice(1));
const INSERT_TEXT = insertRows("INSERT", "query_text", ["seq", "body"]);
const NUMBER_RELEASE =
  "INSERT OR IGNORE INTO query_release_numbers (release, number) " +
  "SELECT ?, coalesce(max(number), 0) + 1 FROM query_release_numbers";
/** A release's profiles in `query_words` are rowids number × 2^32 + seq (migrations/0003). */
const RELEASE_NUMBER = "(SELECT number FROM query_release_numbers WHERE release = ?1)";
const INSERT_WORDS =
  `INSERT INTO query_words (rowid, body) SELECT ${RELEASE_NUMBER} * 4294967296 + json_extract(value, '$[0]'), ` +
  "json_extract(value, '$[1]') FROM json_each(?2)";
/**
 * A profile's bytes cross wrangler's platform proxy with every `"` as U+E000 (`[seq, text, 1]`),
 * put back by SQLite, unless the text holds U+E000 itself (`[seq, text, 0]`, as it is). The proxy
 * escapes its arguments one character at a time, each escape a string concatenation: bodies are a
 * profile's JSON, ~7 % quotes, each escaped twice inside a JSON array; without them the proxy's work
 * on the bodies falls 3–5× (docs/performance.md, "D1 load time").
 */
const QUOTE_STAND_IN = "\uE000";
const INSERT_BODIES =
  "INSERT OR REPLACE INTO query_bodies (release, seq, body) SELECT ?, json_extract(value, '$[0]'), " +
  "iif(json_extract(value, '$[2]'), replace(json_extract(value, '$[1]'), char(57344), '\"'), json_extract(value, '$[1]')) " +
  "FROM json_each(?)";
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

export interface LoadOptions {
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
    const statements = pending.statements(db, release, numbered);
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
      .prepare("INSERT INTO query_releases VALUES (?, ?, ?, ?)")
      .bind(release, entries.length, products.size, new Date().toISOString()),
  ]);
  return { loaded: true, rows: entries.length };
}

/**
 * One batch's rows as JSON, built as its profiles arrive (the parsed profiles are not kept): per
 * table, arrays of rows of at most STATEMENT_BYTES each, one statement each.
 */
class BatchRows {
  readonly profiles = new JsonArrays();
  readonly words = new JsonArrays();
  readonly bodies = new JsonArrays();
  size = 0;

  add(placed: PlacedProfile, row: QueryRow) {
    this.profiles.add(JSON.stringify(columnsOf(placed, row)));
    this.words.add(JSON.stringify([placed.seq, row.text]));
    // Exactly its bytes: the profile's own, plus the ASCII that JSON adds around and inside them.
    const swapped = !placed.text.includes(QUOTE_STAND_IN);
    const pieces = swapped ? placed.text.split('"') : [placed.text];
    const text = pieces.join(QUOTE_STAND_IN);
    const body = JSON.stringify([placed.seq, text, swapped ? 1 : 0]);
    // Each `"` made U+E000 grows from 1 byte to 3.
    this.bodies.add(body, placed.entry.length + 2 * (pieces.length - 1) + body.length - text.length);
    this.size++;
  }

  statements(db: QueryDb, release: string, numbered: boolean): QueryStatement[] {
    const statements = (sql: string, arrays: JsonArrays) =>
      arrays.texts().map((rows) => db.prepare(sql).bind(release, rows));
    return [
      // The release's number for `query_words`: given by its first batch, kept by the others.
      ...(numbered ? [db.prepare(NUMBER_RELEASE).bind(release)] : []),
      ...statements(INSERT_PROFILES, this.profiles),
      ...statements(numbered ? INSERT_WORDS : INSERT_TEXT, this.words),
      ...statements(INSERT_BODIES, this.bodies),
    ];
  }
}

/** Rows' JSON texts joined into arrays of at most STATEMENT_BYTES bytes each (a larger row alone). */
class JsonArrays {
  readonly #done: string[][] = [];
  #rows: string[] = [];
  #bytes = 0;

  /** `bytes`: the row's UTF-8 length, or at most that (3 bytes per UTF-16 unit bound it). */
  add(json: string, bytes = 3 * json.length) {
    if (this.#rows.length > 0 && this.#bytes + bytes > STATEMENT_BYTES) {
      this.#done.push(this.#rows);
      this.#rows = [];
      this.#bytes = 0;
    }
    this.#rows.push(json);
    this.#bytes += bytes + 1;
  }

  texts(): string[] {
    const arrays = this.#rows.length > 0 ? [...this.#done, this.#rows] : this.#done;
    return arrays.map((rows) => `[${rows.join(",")}]`);
  }
}

/** A profile's row of `query_profiles`, in PROFILE_COLUMNS order after `release`. */
function columnsOf({ seq, entry }: PlacedProfile, row: QueryRow): unknown[] {
  return [
    seq,
    row.id,
    row.product_key,
    row.product_name,
    row.funnel_key,
    row.funnel_name,
    row.entity,
    row.grade,
    row.grade_rank,
    row.overall_outcome,
    row.public_state,
    ...STAGES.map((stage) => row.stages[stage].state),
    row.primary_stage,
    ...STAGES.map((stage) => row.stages[stage].signal),
    row.coverage_status,
    row.freshness,
    row.lifecycle,
    row.visibility,
    row.last_tested_at,
    entry.offset,
    entry.length,
    entry.sha256,
  ];
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
