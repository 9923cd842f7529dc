/**
 * The kinds of facet a query field is (docs/contract.md, "Querying the catalog"). Each kind is one
 * object that knows where its values are in a row of `query_profiles` (the SQL of its filter and of
 * its counts), how its counts are kept at publish and may be summed, and in what order the
 * explorer offers its values, so no code outside tests a field's name for a special case. Pure.
 */
import { SIGNAL_CODES, STAGES } from "./schema";

/** A column of a profile's row, by name (query-fields.ts reads it from a QueryRow). */
type ColumnReader = (column: string) => string;

export interface FacetKind {
  /** The columns that hold the field's values: one, or one per stage. */
  columns(column: string): string[];
  /** The column that holds `value`: a filter's values are grouped by it. */
  columnOf(column: string, value: string): string;
  /** The field's values in one row, as publish counts them. */
  valuesOf(read: ColumnReader, column: string): string[];
  /** Whether the counts of several values sum to the profiles with any of them (a profile has one value). */
  readonly sumsExactly: boolean;
  /** Kept and answered as its largest values only: open sets of keys. */
  readonly top?: number;
  /** The order the explorer offers the values in: the closed set's own, else largest count first. */
  order(allowed: readonly string[] | undefined): readonly string[] | undefined;
}

/** One value per profile, in one column (grade, outcome, a stage's state…). */
export const SINGLE_VALUED: FacetKind = {
  columns: (column) => [column],
  columnOf: (column) => column,
  valuesOf: (read, column) => [read(column)],
  sumsExactly: true,
  order: (allowed) => allowed,
};

/** The stage whose signal column holds a code: the observed codes of the stages do not overlap. */
const stageOfSignal = (code: string) => STAGES.find((stage) => SIGNAL_CODES[stage].includes(code)) ?? STAGES[0];

/** One value per stage (`signal`: each stage's primary signal code), in one column per stage. */
export const MULTI_VALUED: FacetKind = {
  columns: (column) => STAGES.map((stage) => `${column}_${stage}`),
  columnOf: (column, value) => `${column}_${stageOfSignal(value)}`,
  valuesOf: (read, column) => STAGES.map((stage) => read(`${column}_${stage}`)),
  sumsExactly: false,
  order: (allowed) => allowed,
};

/** The largest values a top facet keeps (docs/contract.md). */
const TOP_FACET_VALUES = 100;

/** One value per profile from an open set of keys (product, funnel): only the largest are counted. */
export const TOP_N: FacetKind = {
  ...SINGLE_VALUED,
  top: TOP_FACET_VALUES,
  order: () => undefined,
};
