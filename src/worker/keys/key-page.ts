/**
 * One page of an account's keys. Keys stay in their one order (oldest first). A page is read
 * forward (from the start, `starting_after` a key, or a `cursor` of a forward page) or backward
 * (`ending_before` a key, or a `cursor` of a backward page), and `has_more` and `next` say whether
 * more keys lie beyond the page in that direction, as Stripe's lists do. Without `limit` the page
 * is every key from the cursor on (what GET /v1/keys returned before it paged).
 */
import type { KeyView } from "../auth/account-views";
import { type CursorScope, openTextCursor, sealCursor } from "../http/cursor";
import { cursorProblem } from "../http/query-problem";
import { KEY_LIST_URL, type KeyListQuery } from "./schemas";

interface KeyPage {
  data: KeyView[];
  has_more: boolean;
  backward: boolean;
}

/** Where a page starts: Stripe's two ids, and which parameter carried the id (a refusal names it). */
interface KeyPlace {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
  via?: "cursor";
}

/** A cursor of the keys of one account: never one of another's. */
const keysCursor = (accountId: string): CursorScope => ({
  list: "keys",
  query: accountId,
  parameter: "cursor",
  source: "`next` URL",
});

/** The place a query names: its Stripe-style id as given, or the one its cursor carries. */
export async function keyPlaceOf(env: object, accountId: string, query: KeyListQuery): Promise<KeyPlace> {
  if (query.cursor === undefined) return query;
  const at = await openTextCursor(env, keysCursor(accountId), query.cursor);
  const [direction, id] = at.split(" ");
  const side = direction === "before" ? "ending_before" : "starting_after";
  return { limit: query.limit, [side]: id, via: "cursor" };
}

export function pageOfKeys(keys: readonly KeyView[], place: KeyPlace): KeyPage {
  const limit = place.limit ?? keys.length;
  if (place.ending_before) {
    const end = cursorIndex(keys, place.ending_before, place.via ?? "ending_before");
    const start = Math.max(0, end - limit);
    return { data: keys.slice(start, end), has_more: start > 0, backward: true };
  }
  const start = place.starting_after ? cursorIndex(keys, place.starting_after, place.via ?? "starting_after") + 1 : 0;
  return { data: keys.slice(start, start + limit), has_more: start + limit < keys.length, backward: false };
}

/** The URL of the page beyond `page`, in the direction it was read; null when there is none. */
export async function nextKeyPage(env: object, accountId: string, limit: number | undefined, page: KeyPage) {
  const edge = page.backward ? page.data.at(0) : page.data.at(-1);
  if (!page.has_more || limit === undefined || !edge) return null;
  const at = `${page.backward ? "before" : "after"} ${edge.id}`;
  return `${KEY_LIST_URL}?limit=${limit}&cursor=${await sealCursor(env, keysCursor(accountId), { at })}`;
}

function cursorIndex(keys: readonly KeyView[], keyId: string, parameter: string): number {
  const index = keys.findIndex((key) => key.id === keyId);
  if (index >= 0) return index;
  const message = `${keyId} is not a key of this account: take the cursor from a page of this list`;
  throw cursorProblem(parameter, message);
}
