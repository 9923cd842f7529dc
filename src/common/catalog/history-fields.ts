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

/** Counts of how two releases differ (GET …/changes/summary): per field, `old→new` → profiles. */
export interface ChangeCounts {
  added: number;
  removed: number;
  changed: number;
  transitions: Record<string, Record<string, number>>;
}

/** Nothing counted yet: every TRANSITION_FIELDS name listed, with no transition. */
export const noChanges = (): ChangeCounts => ({
  added: 0,
  removed: 0,
  changed: 0,
  transitions: Object.fromEntries(TRANSITION_FIELDS.map((field) => [field.name, {}])),
});

/**
 * Counts one profile into `counts`: `added` with only `after`, `removed` with only `before`, else
 * `changed` and a transition for each TRANSITION_FIELDS value that differs. The caller passes only
 * profiles whose bytes differ between the two sides.
 */
export function countChange(counts: ChangeCounts, before: RatedValues | null, after: RatedValues | null): void {
  if (!before || !after) {
    if (after) counts.added++;
    else if (before) counts.removed++;
    return;
  }
  counts.changed++;
  RATED_FIELDS.forEach((field, i) => {
    const [old, now] = [before[i], after[i]];
    if (!TRANSITION_FIELDS.includes(field) || old === undefined || now === undefined || old === now) return;
    const fieldCounts = counts.transitions[field.name] ?? {};
    counts.transitions[field.name] = fieldCounts;
    const key = transitionKey(old, now);
    fieldCounts[key] = (fieldCounts[key] ?? 0) + 1;
  });
}
