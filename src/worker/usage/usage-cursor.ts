/**
 * Cursors of GET /v1/usage/errors: the one cursor format (http/cursor.ts), scoped to the key the list
 * is of, so a cursor of one key's errors is refused for another's. The place is the last error's
 * (at, request_id): the list is newest first, so a page starts strictly before it.
 */
import { type CursorScope, openCursor, sealCursor } from "../http/cursor";
import { cursorProblem } from "../http/query-problem";
import type { ErrorPlace } from "./usage-reads";

const scopeOf = (key: string | undefined): CursorScope => ({
  list: "usage-errors",
  query: key ?? "",
  parameter: "cursor",
  source: "`next`",
});

export const errorsCursor = (env: object, key: string | undefined, place: ErrorPlace) =>
  sealCursor(env, scopeOf(key), { at: [place.at, place.request_id] });

export async function openErrorsCursor(env: object, key: string | undefined, cursor: string): Promise<ErrorPlace> {
  const { at } = await openCursor(env, scopeOf(key), cursor);
  if (Array.isArray(at) && Number.isSafeInteger(at[0]) && typeof at[1] === "string")
    return { at: at[0] as number, request_id: at[1] };
  throw cursorProblem("cursor", "is not a cursor of these errors: follow the previous page's `next` as it is");
}
