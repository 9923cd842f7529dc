/**
 * Profile-history cursors: the one cursor format of every list (http/cursor.ts), scoped to the
 * profile a history pages (its scope or its id), so a cursor edited by hand or sent for another
 * profile is the read service's `invalid_history_cursor` miss, which each door words as its
 * `invalid_cursor`. The place is the last row's (event, product key, funnel key, id).
 */
import { type CursorScope, openCursor, sealCursor } from "../http/cursor";
import { Problem } from "../http/problem";
import { catalogMiss, type ProfileRef } from "./service/errors";

export type HistoryPosition = [number, string, string, string];

const bindingOf = (ref: ProfileRef) => ("id" in ref ? `id ${ref.id}` : `scope ${ref.product} ${ref.funnel}`);

const scopeOf = (ref: ProfileRef): CursorScope => ({
  list: "profile-history",
  query: bindingOf(ref),
  parameter: "cursor",
  source: "`next`",
});

export const encodeHistoryCursor = (env: object, ref: ProfileRef, position: HistoryPosition): Promise<string> =>
  sealCursor(env, scopeOf(ref), { at: position });

/** The position of a cursor made for `ref`'s history, or the service's invalid_history_cursor miss. */
export async function decodeHistoryCursor(env: object, ref: ProfileRef, cursor: string): Promise<HistoryPosition> {
  const { at } = await openCursor(env, scopeOf(ref), cursor).catch((error: unknown) => {
    if (error instanceof Problem && error.code === "invalid_cursor")
      throw catalogMiss({ kind: "invalid_history_cursor" });
    throw error;
  });
  if (isPosition(at)) return at;
  throw catalogMiss({ kind: "invalid_history_cursor" });
}

function isPosition(value: unknown): value is HistoryPosition {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    Number.isInteger(value[0]) &&
    value.slice(1).every((part) => typeof part === "string")
  );
}
