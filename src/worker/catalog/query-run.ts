/**
 * One profile query of one release, run: the page's rows and bytes, the exact count, the facets and
 * the next page's cursor. GET /v1/profiles (profile-query.ts) and the MCP tool `search_profiles`
 * (src/worker/mcp) both answer from it, so both answer the same.
 */
import { hexOf, type Manifest } from "../../common/catalog/manifest";
import { byCountThenValue, fieldNamed } from "../../common/catalog/query-fields";
import { profileBytes } from "./query-bytes";
import { decodeCursor, encodeCursor, type KeysetCursorScope } from "./query-cursor";
import { queryRelease } from "./query-db";
import type { ProfileQuery } from "./query-params";
import {
  countSql,
  keptCountSql,
  keptFacetFilter,
  keptFacetsSql,
  pageSql,
  scannedFacetSql,
  sortColumnOf,
  type Sql,
} from "./query-plan";

export interface PageRow {
  seq: number;
  grade_rank: number;
  last_tested_at: string;
  byte_offset: number;
  byte_length: number;
  sha256: string;
  /** The profile's bytes as text, or null when its release was loaded without them. */
  body: string | null;
}

export interface QueryAnswer {
  /** The exact number of matches. */
  count: number;
  rows: PageRow[];
  /** Each row's profile, exactly its bytes in the release's document. */
  bytes: Uint8Array[];
  /** The next page's cursor, absent on the last page. */
  nextCursor?: string;
  /** Per asked facet (absent when none was asked). */
  facets?: Record<string, Record<string, number>>;
}

/** What a cursor is bound to besides its release: every parameter that decides the matches and their order. */
export const cursorScopeOf = (query: ProfileQuery): KeysetCursorScope => ({
  list: "profiles",
  query: JSON.stringify([
    [...query.filters].map(([name, values]) => [name, [...values].sort()]).sort(),
    query.q ?? null,
    query.testedAfter ?? null,
    query.testedBefore ?? null,
    query.sort,
  ]),
});

export async function runProfileQuery(
  env: { CATALOG_DB: D1Database; RELEASES: R2Bucket },
  manifest: Manifest,
  query: ProfileQuery,
  options: { disjunctive?: boolean } = {},
): Promise<QueryAnswer> {
  const release = hexOf(manifest.release_id);
  const scope = cursorScopeOf(query);
  const after =
    query.cursor === undefined ? undefined : await decodeCursor(env, scope, manifest.release_id, query.cursor);

  const unfiltered = query.filters.size === 0 && !query.q && !query.testedAfter && !query.testedBefore;
  const statements: Sql[] = [pageSql(release, query, after)];
  const count = unfiltered ? undefined : (keptCountSql(release, query) ?? countSql(release, query));
  if (count) statements.push(count);
  for (const group of facetGroups(query, options.disjunctive ?? false)) statements.push(...facetSql(release, group));

  const { release: loaded, results } = await queryRelease(env.CATALOG_DB, manifest, statements);
  const [rows, ...rest] = results as [PageRow[], ...Record<string, unknown>[][]];
  const total = count ? Number(rest.shift()?.[0]?.n ?? 0) : loaded.profile_count;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last
      ? await encodeCursor(env, scope, manifest.release_id, {
          value: last[sortColumnOf(query.sort) as "seq" | "grade_rank" | "last_tested_at"],
          seq: last.seq,
        })
      : undefined;
  const bytes = await pageBytes(env.RELEASES, manifest, page);
  return {
    count: total,
    rows: page,
    bytes,
    ...(nextCursor ? { nextCursor } : {}),
    ...(query.facets.length ? { facets: facetsOf(query.facets, rest.flat()) } : {}),
  };
}

/**
 * The queries whose facet counts answer: the query itself for every asked facet, or, disjunctive,
 * for a facet the query filters on, the query without that filter (so each of its other values
 * keeps the count it would add: "any of" filters let a second value be chosen).
 */
function facetGroups(query: ProfileQuery, disjunctive: boolean): ProfileQuery[] {
  if (!disjunctive) return query.facets.length ? [query] : [];
  const own = query.facets.filter((facet) => query.filters.has(facet));
  const rest = query.facets.filter((facet) => !query.filters.has(facet));
  const withoutOwn = own.map((facet) => {
    const filters = new Map(query.filters);
    filters.delete(facet);
    return { ...query, filters, facets: [facet] };
  });
  return [...(rest.length ? [{ ...query, facets: rest }] : []), ...withoutOwn];
}

/** The statements of one group's facets: from the counts kept at publish when they hold them, else scanned. */
function facetSql(release: string, query: ProfileQuery): Sql[] {
  const kept = keptFacetFilter(query);
  if (kept !== undefined) return [keptFacetsSql(release, kept, query.facets)];
  return query.facets.map((facet) => scannedFacetSql(release, query, facet));
}

/**
 * The page's profiles, exactly their bytes in the document: from their rows' bodies (one D1
 * statement for the page), or, for a release loaded before bodies were kept, from the parts.
 */
async function pageBytes(bucket: R2Bucket, manifest: Manifest, page: PageRow[]): Promise<Uint8Array[]> {
  const missing = page.filter((row) => row.body === null);
  const read = await profileBytes(
    bucket,
    manifest,
    missing.map((row) => ({ offset: row.byte_offset, length: row.byte_length })),
  );
  const fromParts = new Map(missing.map((row, i) => [row, read[i]]));
  const encoder = new TextEncoder();
  return page.map((row) => fromParts.get(row) ?? encoder.encode(row.body ?? ""));
}

/** Per asked facet, in the order asked: values by count, largest first, ties by value. */
function facetsOf(asked: string[], rows: Record<string, unknown>[]): Record<string, Record<string, number>> {
  const facets: Record<string, Record<string, number>> = {};
  for (const facet of asked) {
    const entries = rows
      .filter((row) => row.facet === facet)
      .map((row) => [String(row.value), Number(row.n)] as [string, number])
      .filter(([, n]) => n > 0)
      .sort(byCountThenValue);
    facets[facet] = Object.fromEntries(entries.slice(0, fieldNamed(facet).kind.top));
  }
  return facets;
}
