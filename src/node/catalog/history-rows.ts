/**
 * The rows one event adds to D1 `history_profiles` (history-write.ts), from the changes of the
 * pair and the rated fields of each side. Pure: changes and fields in, JSON rows out.
 */
import {
  countChange,
  fieldsChanged,
  RATED_FIELDS,
  type ChangeCounts,
  type RatedValues,
} from "../../common/catalog/history-fields";
import type { ReleaseChange } from "../../common/catalog/release-changes";

export const RATED_COLUMNS = RATED_FIELDS.map((field) => field.column);

/** Rated values by profile id, in RATED_FIELDS order. */
export type FieldsById = Record<string, RatedValues>;

/**
 * `[product_key, funnel_key, event_seq, id, change, sha256, previous_sha256, …rated, fields_changed]`
 * per change. The rated values are the new ones, or for a removed profile the last it had; a change
 * whose side has no known fields (a release without query rows) has no row. Each row is counted
 * into `summary` as a comparison of the two releases counts it (from the rows: `changed` with
 * fields on both sides, else `added` or `removed`).
 */
export function changeRows(
  seq: number,
  changes: ReleaseChange[],
  after: FieldsById,
  before: FieldsById,
  summary: ChangeCounts,
): unknown[][] {
  const rows: unknown[][] = [];
  for (const change of changes) {
    const rated = change.change === "removed" ? before[change.id] : after[change.id];
    if (!rated) continue;
    const previous = before[change.id];
    countChange(
      summary,
      change.change === "added" ? null : (previous ?? null),
      change.change === "removed" ? null : rated,
    );
    const changed = change.change === "changed" && previous ? fieldsChanged(previous, rated) : [];
    rows.push([
      change.productKey,
      change.funnelKey,
      seq,
      change.id,
      change.change,
      change.current?.sha256 ?? null,
      change.previous?.sha256 ?? null,
      ...rated,
      JSON.stringify(changed),
    ]);
  }
  return rows;
}
