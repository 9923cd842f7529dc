/**
 * What a catalog query can filter, sort and count (docs/contract.md, "Querying the catalog"), and
 * the row of the query tables a profile becomes. One definition for the publish load (Node) and the
 * query routes (worker); pure.
 */
import { GRADES, OUTCOMES, PUBLIC_STATES, SIGNAL_CODES, STAGES, type Profile, type StageName } from "./schema";

/** A filter over one column whose values are a closed set (listed) or keys (open). */
export interface ValueField {
  /** The query parameter, also the facet's name. */
  name: string;
  /** The column of `query_profiles`; for `signal`, the column depends on the code's stage. */
  column: string;
  /** The values a client may send; absent for keys (product, funnel, entity). */
  allowed?: readonly string[];
  /** What it matches, for the OpenAPI document. */
  matches: string;
  /** Counted per value at publish (every field but entity). */
  facet: boolean;
}

const closed = (name: string, column: string, allowed: readonly string[], matches: string): ValueField => ({
  name,
  column,
  allowed,
  matches,
  facet: true,
});

const ALL_SIGNALS = STAGES.flatMap((stage) => SIGNAL_CODES[stage]);

export const VALUE_FIELDS: readonly ValueField[] = [
  { name: "product", column: "product_key", matches: "`scope.product.key`", facet: true },
  { name: "funnel", column: "funnel_key", matches: "`scope.funnel.key`", facet: true },
  { name: "entity", column: "entity", matches: "`entity_id`", facet: false },
  closed("grade", "grade", GRADES, "`grade`, exactly as written"),
  closed("overall_outcome", "overall_outcome", OUTCOMES, "`overall_outcome`"),
  closed("public_state", "public_state", PUBLIC_STATES, "`public_state`"),
  ...STAGES.map((stage) =>
    closed(`stage.${stage}`, `stage_${stage}`, PUBLIC_STATES, `the \`public_state\` of stage \`${stage}\``),
  ),
  closed("primary_stage", "primary_stage", STAGES, "`primary_finding.stage`"),
  closed("signal", "signal", ALL_SIGNALS, "a stage whose `primary_finding.signal_code` is this code"),
  closed("coverage_status", "coverage_status", ["complete", "incomplete"], "`coverage.status`"),
  closed("freshness", "freshness", ["fresh"], "`freshness`"),
  closed("lifecycle", "lifecycle", ["active"], "`lifecycle`"),
  closed("visibility", "visibility", ["discoverable"], "`publication.visibility`"),
];

export const FACET_FIELDS = VALUE_FIELDS.filter((field) => field.facet);
/** Facets kept only as their largest values (docs/contract.md): the open-ended ones. */
export const TOP_FACET_VALUES = 100;
export const isTopOnlyFacet = (name: string) => name === "product" || name === "funnel";

/** Facet order: largest count first, ties by value. */
export const byCountThenValue = ([a, x]: [string, number], [b, y]: [string, number]) =>
  y - x || (a < b ? -1 : a > b ? 1 : 0);

export const SORTS = ["catalog", "grade", "-grade", "last_tested_at", "-last_tested_at"] as const;
export type Sort = (typeof SORTS)[number];

/** Grades best first: A is rank 0. */
export const gradeRank = (grade: string) => GRADES.indexOf(grade as (typeof GRADES)[number]);

/** The stage whose signal column holds a code: the observed codes of the stages do not overlap. */
export const stageOfSignal = (code: string): StageName | undefined =>
  STAGES.find((stage) => SIGNAL_CODES[stage].includes(code));

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

/** The values of a facet field in a row (a profile has one signal per stage, so `signal` has several). */
export function facetValuesOf(row: QueryRow, name: string): string[] {
  if (name === "signal") return STAGES.map((stage) => row.stages[stage].signal);
  if (name.startsWith("stage.")) return [row.stages[name.slice(6) as StageName].state];
  return [String(row[columnOf(VALUE_FIELDS, name) as keyof QueryRow])];
}

/** The D1 column of a field the query schema already accepted (one of `fields`, by name). */
export function columnOf(fields: readonly ValueField[], name: string): string {
  const field = fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`"${name}" is not one of the query's fields`);
  return field.column;
}

/** The words of a `q`, as the full-text index splits text: letters and digits, lowercase. */
export const wordsOf = (q: string) => q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
