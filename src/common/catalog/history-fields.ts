/**
 * The rated fields a profile-history row keeps (docs/history.md): their column in D1
 * `history_profiles`, their name in `fields_changed` and in a summary's `transitions`. One list
 * for the publish that writes the rows and the worker that reads them. Pure.
 */
import { STAGES } from "./schema";

export interface RatedField {
  /** As `fields_changed` and `transitions` name it: `grade`, `stage.pay`, … */
  name: string;
  column: string;
}

export const RATED_FIELDS: readonly RatedField[] = [
  { name: "grade", column: "grade" },
  { name: "overall_outcome", column: "overall_outcome" },
  { name: "public_state", column: "public_state" },
  { name: "primary_stage", column: "primary_stage" },
  ...STAGES.map((stage) => ({ name: `stage.${stage}`, column: `stage_${stage}` })),
  { name: "last_tested_at", column: "last_tested_at" },
];

/** The fields a summary counts transitions of: every rated field but the test time (each retest is new). */
export const TRANSITION_FIELDS = RATED_FIELDS.filter((field) => field.name !== "last_tested_at");

/** A profile's rated values, in RATED_FIELDS order. */
export type RatedValues = readonly string[];

/** The names of the rated fields whose value differs between `before` and `after`. */
export function fieldsChanged(before: RatedValues, after: RatedValues): string[] {
  return RATED_FIELDS.filter((_, i) => before[i] !== after[i]).map((field) => field.name);
}

/** `old→new` (U+2192), the key of a transition in a summary. */
export const transitionKey = (before: string, after: string) => `${before}\u2192${after}`;
