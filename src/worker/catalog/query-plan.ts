/**
 * Query planning, pure: a parsed profile query becomes the SQL of its page, its count and its
 * facets over the query tables (migrations/0001_catalog_query.sql). Values are always bound, never
 * spliced: only column names from VALUE_FIELDS and fixed fragments reach the SQL text. A list of
 * values is one bound JSON array (`IN (SELECT value FROM json_each(?))`), so no query comes near
 * D1's 100 bound parameters per statement.
 */
import { fieldNamed, type Sort } from "../../common/catalog/query-fields";
import { filterTerms, wordMatchesSql } from "../../common/catalog/query-filter";
import { type ProfileQuery, timeBoundsOf } from "./query-params";

export interface Sql {
  text: string;
  args: (string | number)[];
}

/** Where a page starts: after the row with this sort value and place. */
export interface Keyset {
  value: string | number;
  seq: number;
}

const ORDER: Record<Sort, { column: string; direction: "" | "DESC" }> = {
  catalog: { column: "seq", direction: "" },
  grade: { column: "grade_rank", direction: "" },
  "-grade": { column: "grade_rank", direction: "DESC" },
  last_tested_at: { column: "last_tested_at", direction: "" },
  "-last_tested_at": { column: "last_tested_at", direction: "DESC" },
};

export const sortColumnOf = (sort: Sort) => ORDER[sort].column;

/** The WHERE clause of the query's matches (without the page's keyset). */
export function matchesWhere(release: string, query: ProfileQuery): Sql {
  const parts = ["release = ?"];
  const args: (string | number)[] = [release];
  // One value is an equality, so SQLite serves it from the column's index (release, column, seq)
  // in catalog order: a page stops after `limit + 1` matches. Seen as a list, the planner walks
  // the release in primary-key order instead, every profile of it for a selective filter.
  const inList = (column: string, values: readonly (string | number)[]) => {
    const [only] = values;
    if (values.length === 1 && only !== undefined) {
      args.push(only);
      return `${column} = ?`;
    }
    args.push(JSON.stringify(values));
    return `${column} IN (SELECT value FROM json_each(?))`;
  };
  for (const term of filterTerms(query.filters)) {
    const ors = term.map(({ column, values }) => inList(column, values));
    parts.push(ors.length === 1 ? (ors[0] as string) : `(${ors.join(" OR ")})`);
  }
  for (const bound of timeBoundsOf(query)) {
    parts.push(`last_tested_at ${bound.operator} ?`);
    args.push(bound.value);
  }
  if (query.q) {
    const words = wordMatchesSql(release, query.q);
    parts.push(`seq IN (${words.text})`);
    args.push(...words.args);
  }
  return { text: parts.join(" AND "), args };
}

export const PAGE_COLUMNS = "seq, grade_rank, last_tested_at, byte_offset, byte_length, sha256";

/**
 * One page: `limit + 1` rows, so the page knows whether more follow, each with its profile's bytes
 * (`body`, null for a release loaded before `query_bodies` existed). The bodies are joined to the
 * page's rows only, after its LIMIT, so a page reads `limit + 1` of them whatever the matches.
 */
export function pageSql(release: string, query: ProfileQuery, after?: Keyset): Sql {
  const where = matchesWhere(release, query);
  const { column, direction } = ORDER[query.sort];
  let text = where.text;
  const args = [...where.args];
  if (after && column === "seq") {
    text += " AND seq > ?";
    args.push(after.seq);
  } else if (after) {
    // Ties always continue in catalog order (seq ascending), whatever the sort's direction.
    text += ` AND (${column} ${direction ? "<" : ">"} ? OR (${column} = ? AND seq > ?))`;
    args.push(after.value, after.value, after.seq);
  }
  const order = column === "seq" ? "seq" : `${column} ${direction}, seq`.replace(" ,", ",");
  return {
    text:
      `WITH page AS (SELECT ${PAGE_COLUMNS} FROM query_profiles WHERE ${text} ORDER BY ${order} LIMIT ?) ` +
      "SELECT page.*, query_bodies.body FROM page LEFT JOIN query_bodies ON query_bodies.release = ? " +
      `AND query_bodies.seq = page.seq ORDER BY ${order.replace(/\bseq\b/, "page.seq")}`,
    args: [...args, query.limit + 1, release],
  };
}

export function countSql(release: string, query: ProfileQuery): Sql {
  // `q` alone: its matches are counted in the word tables, without a lookup of each match's row
  // (every profile of a loaded release has its row).
  if (query.q && query.filters.size === 0 && !query.testedAfter && !query.testedBefore) {
    const words = wordMatchesSql(release, query.q);
    return { text: `SELECT count(*) AS n FROM (${words.text})`, args: words.args };
  }
  const where = matchesWhere(release, query);
  return { text: `SELECT count(*) AS n FROM query_profiles WHERE ${where.text}`, args: where.args };
}

/**
 * The filter whose kept facet counts answer this query, or null when they cannot: the query has at
 * most one kept filter (no `q`, dates, product or entity) and, if that filter lists several values,
 * summing their counts is exact (not `signal`, whose values a profile has several of; not for a
 * facet kept only as its largest values).
 */
export function keptFacetFilter(query: ProfileQuery): { filter: string; values: string[] } | null | undefined {
  if (query.q || query.testedAfter || query.testedBefore) return undefined;
  const filters = [...query.filters];
  if (filters.length === 0) return null;
  const [only] = filters;
  if (filters.length > 1 || !only) return undefined;
  const [name, values] = only;
  const field = fieldNamed(name);
  if (!field.keptAsFilter) return undefined;
  const summedExactly = field.kind.sumsExactly && !query.facets.some((facet) => fieldNamed(facet).kind.top);
  if (values.length > 1 && !summedExactly) return undefined;
  return { filter: name, values };
}

/** Facet counts from the kept counts (`filter` null: the whole release). */
export function keptFacetsSql(
  release: string,
  kept: { filter: string; values: string[] } | null,
  facets: string[],
): Sql {
  return {
    text:
      "SELECT facet, value, sum(count) AS n FROM query_facets WHERE release = ? AND filter = ? " +
      "AND filter_value IN (SELECT value FROM json_each(?)) AND facet IN (SELECT value FROM json_each(?)) " +
      "GROUP BY facet, value",
    args: [release, kept ? kept.filter : "", JSON.stringify(kept ? kept.values : [""]), JSON.stringify(facets)],
  };
}

/** Facet counts over every match, for queries the kept counts cannot answer: one statement per facet. */
export function scannedFacetSql(release: string, query: ProfileQuery, facet: string): Sql {
  const where = matchesWhere(release, query);
  const field = fieldNamed(facet);
  const columns = field.kind.columns(field.column);
  const values = columns.map((column) => `SELECT ${column} AS value FROM matches`).join(" UNION ALL ");
  return {
    text:
      `WITH matches AS (SELECT ${columns.join(", ")} FROM query_profiles WHERE ${where.text}) ` +
      `SELECT ? AS facet, value, count(*) AS n FROM (${values}) GROUP BY value`,
    args: [...where.args, facet],
  };
}

/**
 * The exact count from the kept facet counts, when they hold it: one filter (values summed, which
 * is exact unless a profile can have several of them: `signal`), or two filters of one value each.
 * Undefined: count the matches.
 */
export function keptCountSql(release: string, query: ProfileQuery): Sql | undefined {
  if (query.q || query.testedAfter || query.testedBefore) return undefined;
  const filters = [...query.filters];
  const exactSum = ([name, values]: [string, string[]]) => {
    const field = fieldNamed(name);
    return field.facet && !field.kind.top && (values.length === 1 || field.kind.sumsExactly);
  };
  const sum =
    "SELECT coalesce(sum(count), 0) AS n FROM query_facets WHERE release = ? AND filter = ? AND filter_value = ?";
  const [single] = filters;
  if (filters.length === 1 && single && exactSum(single)) {
    const [name, values] = single;
    return {
      text: `${sum} AND facet = ? AND value IN (SELECT value FROM json_each(?))`,
      args: [release, "", "", name, JSON.stringify(values)],
    };
  }
  if (filters.length === 2) {
    const [[outer, outerValues], [inner, innerValues]] = filters as [[string, string[]], [string, string[]]];
    for (const [filter, filterValues, facet, facetValues] of [
      [outer, outerValues, inner, innerValues],
      [inner, innerValues, outer, outerValues],
    ] as const) {
      const [filterValue] = filterValues;
      const [facetValue] = facetValues;
      if (
        filterValue === undefined ||
        facetValue === undefined ||
        filterValues.length !== 1 ||
        facetValues.length !== 1
      )
        return undefined;
      const counted = fieldNamed(facet);
      if (!fieldNamed(filter).keptAsFilter || !counted.facet || counted.kind.top) continue;
      return {
        text: `${sum} AND facet = ? AND value = ?`,
        args: [release, filter, filterValue, facet, facetValue],
      };
    }
  }
  return undefined;
}
