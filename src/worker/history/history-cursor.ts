/**
 * Profile-history cursors: the one cursor format of every list (http/cursor.ts), scoped to the
 * profile a history pages (its scope or its id), so a cursor edited by hand or sent for another
 * profile is `400 invalid_cursor`. The place is the last row's (event, product key, funnel key, id).
 */
import { type CursorScope, openCursor, sealCursor } from "../http/cursor";
import { cursorProblem } from "../http/query-problem";

export type HistoryPosition = [number, string, string, string];

const scopeOf = (binding: string): CursorScope => ({
  list: "profile-history",
  query: binding,
  parameter: "cursor",
  source: "`next`",
});

export const encodeHistoryCursor = (env: object, binding: string, position: HistoryPosition): Promise<string> =>
  sealCursor(env, scopeOf(binding), { at: position });

/** The position of a cursor made for `binding`, or the 400 invalid_cursor problem. */
export async function decodeHistoryCursor(env: object, binding: string, cursor: string): Promise<HistoryPosition> {
  const { at } = await openCursor(env, scopeOf(binding), cursor);
  if (isPosition(at)) return at;
  throw cursorProblem("cursor", "is not a cursor of this history: follow the previous page's `next` as it is");
}

function isPosition(value: unknown): value is HistoryPosition {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    Number.isInteger(value[0]) &&
    value.slice(1).every((part) => typeof part === "string")
  );
}
