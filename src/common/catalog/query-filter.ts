/**
 * The filter part of a catalog query (docs/contract.md, "Querying the catalog") as data, and its
 * two readings: the terms the query route turns into SQL (src/worker/catalog/query-plan.ts) and the
 * in-memory predicate a watch is evaluated with at publish (src/node/catalog/watch-evaluate.ts). One
 * meaning, so a watch matches exactly the profiles `GET /v1/profiles` with its query would list.
 * Pure.
 */
import { fieldNamed, VALUE_FIELDS, wordsOf } from "./query-fields";

/** A `last_tested_at` bound: stored times compare as text (ISO 8601 UTC, whole milliseconds). */
export interface TimeBound {
  operator: ">" | ">=" | "<" | "<=";
  value: string;
}

export interface QueryFilter {
  /** Filter name → values, any of which must match; every filter must match. */
  filters: [string, string[]][];
  q?: string;
  testedAfter?: TimeBound;
  testedBefore?: TimeBound;
}

/** One alternative of a term: the column holds one of the values. */
export interface ColumnValues {
  column: string;
  values: (string | number)[];
}

/**
 * Each filter as the columns that decide it: a grade by its rank column (so a sort and a filter
 * share its index), a multi-valued field by the column of each value (one per stage).
 */
export function filterTerms(filters: Iterable<[string, string[]]>): ColumnValues[][] {
  const terms: ColumnValues[][] = [];
  for (const [name, values] of filters) {
    const field = fieldNamed(name);
    if (field.rank) {
      terms.push([{ column: field.rank.column, values: values.map(field.rank.of) }]);
      continue;
    }
    const byColumn = Map.groupBy(values, (value) => field.kind.columnOf(field.column, value));
    terms.push([...byColumn].map(([column, some]) => ({ column, values: some })));
  }
  return terms;
}

/** The FTS5 query of `q`: every word, the last one as a prefix. Words are letters and digits only. */
export function matchExpression(q: string): string {
  const words = wordsOf(q);
  return words.map((word, i) => `"${word}"${i === words.length - 1 ? "*" : ""}`).join(" ");
}

/**
 * The SQL of the `seq` of every profile of a release whose text matches `q`. A release loaded with a
 * number: its rowid range of `query_words`, served by FTS5's index. Loaded before numbers
 * (migrations/0003): `query_text`, which checks each match's release.
 */
export function wordMatchesSql(release: string, q: string): { text: string; args: string[] } {
  const number = "(SELECT number FROM query_release_numbers WHERE release = ?)";
  const match = matchExpression(q);
  return {
    text:
      "SELECT rowid & 4294967295 AS seq FROM query_words WHERE query_words MATCH ? " +
      `AND rowid BETWEEN ${number} * 4294967296 AND ${number} * 4294967296 + 4294967295 ` +
      "UNION ALL SELECT seq FROM query_text WHERE query_text MATCH ? AND release = ? " +
      "AND NOT EXISTS (SELECT 1 FROM query_release_numbers WHERE release = ?)",
    args: [match, release, release, match, release, release],
  };
}

/** A row of `query_profiles`, by column. */
export type FilterRow = Readonly<Record<string, unknown>>;

/** Whether a row's `q` matches, as `wordMatchesSql` found for its release. */
export type TextMatch = (q: string, row: FilterRow) => boolean;

const holds = (value: string, bound: TimeBound) => {
  switch (bound.operator) {
    case ">":
      return value > bound.value;
    case ">=":
      return value >= bound.value;
    case "<":
      return value < bound.value;
    case "<=":
      return value <= bound.value;
  }
};

/** The filter as an in-memory predicate over query rows, compiled once: the terms are built here. */
export function compileFilter(filter: QueryFilter): (row: FilterRow, text: TextMatch) => boolean {
  const terms = filterTerms(filter.filters).map((term) =>
    term.map(({ column, values }) => ({ column, values: new Set<unknown>(values) })),
  );
  const bounds = [filter.testedAfter, filter.testedBefore].filter((bound) => bound !== undefined);
  const { q } = filter;
  return (row, text) =>
    terms.every((term) => term.some(({ column, values }) => values.has(row[column]))) &&
    bounds.every((bound) => holds(String(row.last_tested_at), bound)) &&
    (q === undefined || text(q, row));
}

/** The columns of `query_profiles` a filter reads: every field's, the grade's rank, the test time. */
export const FILTER_COLUMNS: readonly string[] = [
  ...new Set([
    ...VALUE_FIELDS.flatMap((field) => (field.rank ? [field.rank.column] : field.kind.columns(field.column))),
    "last_tested_at",
  ]),
];
