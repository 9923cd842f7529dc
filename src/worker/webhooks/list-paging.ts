/**
 * Paging of the webhook lists (endpoints, an endpoint's deliveries) as every list pages
 * (docs/contract.md, "Lists"): `limit`, and a `cursor` naming the last entry of the previous page
 * by its keyset (`created_at`, then `id`), so a page neither repeats nor skips an entry when one is
 * deleted or pruned in between. The cursor is bound to the account (and endpoint) it lists.
 */
import { type CursorList, type CursorScope, cursorParam, openTextCursor, sealCursor } from "../http/cursor";
import { limitParam } from "../http/limit-param";
import { strictQuery } from "../http/strict-query";

/** Where a page ends: its last entry's place in the keyset order. */
export interface Keyset {
  created_at: string;
  id: string;
}

export const webhookListQuery = (what: string, max: number, fallback: number) =>
  strictQuery({ limit: limitParam({ what, max, default: fallback }), cursor: cursorParam("cursor") });

const scopeOf = (list: CursorList, owner: string): CursorScope => ({
  list,
  query: owner,
  parameter: "cursor",
  source: "`next` URL",
});

/** The keyset a cursor of `list` for `owner` names (an ISO time has no space); else the 400. */
export async function openKeyset(env: object, list: CursorList, owner: string, cursor: string): Promise<Keyset> {
  const [created_at = "", id = ""] = (await openTextCursor(env, scopeOf(list, owner), cursor)).split(" ");
  return { created_at, id };
}

/** The URL of the page after `last`, at the same `limit`; null when `more` is false. */
export async function nextPageUrl(
  env: object,
  list: CursorList,
  owner: string,
  { path, limit, last, more }: { path: string; limit: number; last: Keyset | undefined; more: boolean },
): Promise<string | null> {
  if (!more || !last) return null;
  const cursor = await sealCursor(env, scopeOf(list, owner), { at: `${last.created_at} ${last.id}` });
  return `${path}?limit=${limit}&cursor=${cursor}`;
}

/** Whether `entry` comes after `keyset` in keyset order (binary, as SQLite compares text). */
export const isAfter = (entry: Keyset, keyset: Keyset) =>
  entry.created_at === keyset.created_at ? entry.id > keyset.id : entry.created_at > keyset.created_at;
