/**
 * Keyset cursors of the profile query and the browse lists (docs/contract.md, "Querying the
 * catalog"): where the next page starts (the last row's sort value and place) in the release the
 * first page was read from, sealed by the one cursor format (src/worker/http/cursor.ts) to the
 * list and the query that made it, so a cursor changed by hand, or sent with other filters or
 * another sort, is refused (400 invalid_cursor) instead of silently paging something else.
 */
import { type CursorList, openCursor, sealCursor } from "../http/cursor";
import { cursorProblem } from "../http/query-problem";
import type { Keyset } from "./query-plan";

export interface KeysetCursorScope {
  list: CursorList;
  /** The filters and sort that decide the matches and their order, without the release. */
  query: string;
}

/** The REST routes' words: their cursor is the `cursor` of the `next` URL. */
const REST = { parameter: "cursor", source: "`next` URL" };

export function encodeCursor(env: object, scope: KeysetCursorScope, release: string, keyset: Keyset): Promise<string> {
  return sealCursor(env, { ...scope, ...REST }, { release, at: [keyset.value, keyset.seq] });
}

/** The release a cursor of this query pages (MCP's `next_cursor` carries no URL), or the 400 invalid_cursor. */
export async function releaseOfCursor(env: object, scope: KeysetCursorScope, cursor: string): Promise<string> {
  const place = await openCursor(env, { ...scope, parameter: "cursor", source: "`next_cursor`" }, cursor);
  if (typeof place.release !== "string") throw otherRelease("`next_cursor`");
  return place.release;
}

/** The keyset of a cursor this query made in this release, or the 400 invalid_cursor problem. */
export async function decodeCursor(
  env: object,
  scope: KeysetCursorScope,
  release: string,
  cursor: string,
): Promise<Keyset> {
  const place = await openCursor(env, { ...scope, ...REST }, cursor);
  const [value, seq] = Array.isArray(place.at) ? place.at : [];
  if (place.release === release && (typeof value === "string" || typeof value === "number") && Number.isInteger(seq))
    return { value, seq: seq as number };
  throw otherRelease(REST.source);
}

const otherRelease = (source: string) =>
  cursorProblem("cursor", `is a cursor of another release: pass the previous page's ${source} as it is`);
