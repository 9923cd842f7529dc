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

/** Profiles per D1 batch (two statements each) and rows per batch of counts: small enough for D1 and for wrangler's platform proxy, whose connection broke under batches of 500 larger statements. */
export const LOAD_BATCH_PROFILES = 100;
const FACET_BATCH_ROWS = 100;

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
const INSERT_PROFILE = `INSERT OR REPLACE INTO query_profiles (${PROFILE_COLUMNS.join(", ")}) VALUES (${PROFILE_COLUMNS.map(() => "?").join(", ")})`;
const INSERT_TEXT = "INSERT INTO query_text (release, seq, body) VALUES (?, ?, ?)";

export async function loadQueryTables(
  db: QueryDb,
  manifest: Manifest,
  source: ReleaseSource,
  onProgress?: (progress: LoadProgress) => void,
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
  const entries = await scopeEntries(manifest, source);
  const batches = Math.ceil(entries.length / LOAD_BATCH_PROFILES);
  const facets = new FacetCounter();
  const products = new Map<string, { name: string; funnels: number }>();
  const funnels = new Map<string, { name: string; profiles: number }>();
  let pending: { placed: PlacedProfile; row: QueryRow }[] = [];
  let position = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    await db.batch(pending.flatMap(({ placed, row }) => profileStatements(db, release, placed, row)));
    onProgress?.({ phase: "load", index: Math.floor((position - 1) / LOAD_BATCH_PROFILES), count: batches });
    pending = [];
  };
  for await (const placed of placedProfiles(manifest, source, entries)) {
    const row = queryRowOf(placed.profile);
    facets.add(row);
    tally(products, row.product_key, row.product_name, "funnels");
    tally(funnels, row.funnel_key, row.funnel_name, "profiles");
    // Document order is the load's order: the first `already` profiles are in from an earlier run.
    if (position++ >= already) pending.push({ placed, row });
    if (pending.length === LOAD_BATCH_PROFILES) await flush();
  }
  await flush();

  // Statements are made just before their batch: through wrangler's platform proxy, thousands of
  // statements prepared ahead of their batch broke its connection (measured: the sample's 3,000).
  const lists: [string, unknown[]][] = [
    ...[...products].map(([key, p]): [string, unknown[]] => [
      "INSERT OR REPLACE INTO query_products VALUES (?, ?, ?, ?, ?)",
      [release, key, p.name, p.name.toLowerCase(), p.funnels],
    ]),
    ...[...funnels].map(([key, f]): [string, unknown[]] => [
      "INSERT OR REPLACE INTO query_funnels VALUES (?, ?, ?, ?)",
      [release, key, f.name, f.profiles],
    ]),
    ...Array.from(facets.counts(), (c): [string, unknown[]] => [
      "INSERT OR REPLACE INTO query_facets VALUES (?, ?, ?, ?, ?, ?)",
      [release, c.filter, c.filter_value, c.facet, c.value, c.count],
    ]),
  ];
  for (let from = 0; from < lists.length; from += FACET_BATCH_ROWS)
    await db.batch(lists.slice(from, from + FACET_BATCH_ROWS).map(([sql, args]) => db.prepare(sql).bind(...args)));
  await db.batch([
    db
      .prepare("INSERT INTO query_releases VALUES (?, ?, ?, ?)")
      .bind(release, entries.length, products.size, new Date().toISOString()),
  ]);
  return { loaded: true, rows: entries.length };
}

function profileStatements(
  db: QueryDb,
  release: string,
  { seq, entry }: PlacedProfile,
  row: QueryRow,
): QueryStatement[] {
  const values = [
    release,
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
  return [db.prepare(INSERT_PROFILE).bind(...values), db.prepare(INSERT_TEXT).bind(release, seq, row.text)];
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
    await db.batch(
      ["query_profiles", "query_text", "query_facets", "query_products", "query_funnels"].map((table) =>
        db.prepare(`DELETE FROM ${table} WHERE release = ?`).bind(release),
      ),
    );
  }
  return pruned;
}
