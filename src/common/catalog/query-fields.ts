/**
 * What a catalog query can filter, sort and count (docs/contract.md, "Querying the catalog"), and
 * the row of the query tables a profile becomes. One definition for the publish load (Node) and the
 * query routes (worker); pure.
 */
import { type FacetKind, MULTI_VALUED, SINGLE_VALUED, TOP_N } from "./facet-kinds";
import { GRADES, OUTCOMES, PUBLIC_STATES, SIGNAL_CODES, STAGES, type Profile, type StageName } from "./schema";

/** A filter over one column whose values are a closed set (listed) or keys (open). */
export interface ValueField {
  /** The query parameter, also the facet's name. */
  name: string;
  /** The column of `query_profiles`, or the prefix of its columns for a multi-valued field. */
  column: string;
  /** How its values sit in the rows and are counted (facet-kinds.ts). */
  kind: FacetKind;
  /** Filtered by a rank column instead (grades: `grade_rank`, so a sort and a filter share its index). */
  rank?: { column: string; of: (value: string) => number };
  /** The values a client may send; absent for keys (product, funnel, entity). */
  allowed?: readonly string[];
  /** What it matches, for the OpenAPI document. */
  matches: string;
  /** Counted per value at publish (every field but entity). */
  facet: boolean;
  /** Its values' facet counts are kept at publish as filters (not entity; not product, whose matches are few enough to count). */
  keptAsFilter: boolean;
}

const closed = (
  name: string,
  column: string,
  allowed: readonly string[],
  matches: string,
  more: Partial<ValueField> = {},
): ValueField => ({ name, column, allowed, matches, kind: SINGLE_VALUED, facet: true, keptAsFilter: true, ...more });

const ALL_SIGNALS = STAGES.flatMap((stage) => SIGNAL_CODES[stage]);

export const VALUE_FIELDS: readonly ValueField[] = [
  {
    name: "product",
    column: "product_key",
    matches: "`scope.product.key`",
    kind: TOP_N,
    facet: true,
    keptAsFilter: false,
  },
  { name: "funnel", column: "funnel_key", matches: "`scope.funnel.key`", kind: TOP_N, facet: true, keptAsFilter: true },
  { name: "entity", column: "entity", matches: "`entity_id`", kind: SINGLE_VALUED, facet: false, keptAsFilter: false },
  closed("grade", "grade", GRADES, "`grade`, exactly as written", {
    rank: { column: "grade_rank", of: (grade) => gradeRank(grade) },
  }),
  closed("overall_outcome", "overall_outcome", OUTCOMES, "`overall_outcome`"),
  closed("public_state", "public_state", PUBLIC_STATES, "`public_state`"),
  ...STAGES.map((stage) =>
    closed(`stage.${stage}`, `stage_${stage}`, PUBLIC_STATES, `the \`public_state\` of stage \`${stage}\``),
  ),
  closed("primary_stage", "primary_stage", STAGES, "`primary_finding.stage`"),
  closed("signal", "signal", ALL_SIGNALS, "a stage whose `primary_finding.signal_code` is this code", {
    kind: MULTI_VALUED,
  }),
  closed("coverage_status", "coverage_status", ["complete", "incomplete"], "`coverage.status`"),
  closed("freshness", "freshness", ["fresh"], "`freshness`"),
  closed("lifecycle", "lifecycle", ["active"], "`lifecycle`"),
  closed("visibility", "visibility", ["discoverable"], "`publication.visibility`"),
];

export const FACET_FIELDS = VALUE_FIELDS.filter((field) => field.facet);

/** The field a query schema already accepted, by name. */
export function fieldNamed(name: string): ValueField {
  const field = VALUE_FIELDS.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`"${name}" is not one of the query's fields`);
  return field;
}

/** Facet order: largest count first, ties by value. */
export const byCountThenValue = ([a, x]: [string, number], [b, y]: [string, number]) =>
  y - x || (a < b ? -1 : a > b ? 1 : 0);

export const SORTS = ["catalog", "grade", "-grade", "last_tested_at", "-last_tested_at"] as const;
export type Sort = (typeof SORTS)[number];

/** Grades best first: A is rank 0. */
export const gradeRank = (grade: string) => GRADES.indexOf(grade as (typeof GRADES)[number]);

/** A profile's row of `query_profiles`, without its release and place. */
export interface QueryRow {
  id: string;
  product_key: string;
  product_name: string;
  funnel_key: string;
  funnel_name: string;
  entity: string;
  grade: string;
  grade_rank: number;
  overall_outcome: string;
  public_state: string;
  stages: Record<StageName, { state: string; signal: string }>;
  primary_stage: string;
  coverage_status: string;
  freshness: string;
  lifecycle: string;
  visibility: string;
  last_tested_at: string;
  /** The text `q` searches. */
  text: string;
}

export function queryRowOf(profile: Profile): QueryRow {
  const stages = Object.fromEntries(STAGES.map((stage) => [stage, { state: "", signal: "" }])) as QueryRow["stages"];
  const text = [
    profile.scope.product.name,
    profile.scope.product.key,
    profile.scope.funnel.name,
    profile.scope.funnel.key,
  ];
  for (const stage of profile.stages) {
    stages[stage.stage] = { state: stage.public_state, signal: stage.primary_finding.signal_code };
    text.push(stage.primary_finding.finding, stage.primary_finding.condition);
  }
  return {
    id: profile.agent_readiness_profile_id,
    product_key: profile.scope.product.key,
    product_name: profile.scope.product.name,
    funnel_key: profile.scope.funnel.key,
    funnel_name: profile.scope.funnel.name,
    entity: profile.entity_id,
    grade: profile.grade,
    grade_rank: gradeRank(profile.grade),
    overall_outcome: profile.overall_outcome,
    public_state: profile.public_state,
    stages,
    primary_stage: profile.primary_finding.stage,
    coverage_status: profile.coverage.status,
    freshness: profile.freshness,
    lifecycle: profile.lifecycle,
    visibility: profile.publication.visibility,
    last_tested_at: profile.last_tested_at,
    text: text.join("\n"),
  };
}

/** The values of a facet field in a row, as its kind reads them. */
export function facetValuesOf(row: QueryRow, field: ValueField): string[] {
  return field.kind.valuesOf((column) => columnValue(row, column), field.column);
}

/** A column of `query_profiles` from a row: the per-stage ones (`stage_<s>`, `signal_<s>`) from its stages. */
function columnValue(row: QueryRow, column: string): string {
  const [, prefix, stage] = /^(stage|signal)_(.+)$/.exec(column) ?? [];
  const perStage = row.stages[stage as StageName];
  if (perStage) return prefix === "stage" ? perStage.state : perStage.signal;
  return String(row[column as keyof QueryRow]);
}

/** The words of a `q`, as the full-text index splits text: letters and digits, lowercase. */
export const wordsOf = (q: string) => q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
