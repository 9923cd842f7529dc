/**
 * Cursors, the one paging token of every list (docs/contract.md, "Lists"): a place in a list that
 * only this deployment can have made. `<payload>.<tag>`: the payload is base64url JSON of the place
 * (and the release it is in, where the list belongs to one), the tag the first 16 bytes of an
 * HMAC-SHA-256 (RFC 2104) under the deployment secret CURSOR_KEY over the list's name, the query it
 * pages and the payload. A cursor made by hand, changed, sent with another query or to another list
 * is `400 invalid_cursor`; one verifier for every list, tags compared in constant time.
 */
import { z } from "@hono/zod-openapi";
import { cursorProblem } from "./query-problem";

/** Which list a cursor pages: a cursor of one is never a cursor of another. */
export type CursorList =
  | "profiles"
  | "products"
  | "funnels"
  | "product-profiles"
  | "changes"
  | "history"
  | "profile-history"
  | "keys"
  | "orders"
  | "webhook-endpoints"
  | "webhook-deliveries"
  | "usage-errors"
  | "watches"
  | "watch-events"
  | "watch-event-profiles";

interface CursorPlace {
  /** The release the list is of, for lists of one release: the next page is read from it. */
  release?: string;
  /** Where the next page starts, as the list reads it (a keyset, an offset). */
  at: unknown;
}

export interface CursorScope {
  list: CursorList;
  /** Everything besides the place that decides the list's entries and order (filters, sort, `since`). */
  query: string;
  /** The parameter that carries the cursor, named by the 400 of a refused one. */
  parameter: string;
  /** Where the client takes cursors from, in the words of the refusal: "`next`" (REST), "`next_cursor`" (MCP). */
  source: string;
}

const KEY_BYTES = 32;
const TAG_BYTES = 16;
const MAX_CURSOR_LENGTH = 512;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** What the operator must fix when CURSOR_KEY is unusable, or null. */
function cursorKeyProblem(env: object): string | null {
  const secret = (env as { CURSOR_KEY?: unknown }).CURSOR_KEY;
  const fix = "set the Worker secret CURSOR_KEY to 32 random bytes, base64url (docs/contract.md, Lists)";
  if (typeof secret !== "string") return `CURSOR_KEY is missing: ${fix}.`;
  if (!BASE64URL.test(secret) || secret.length % 4 === 1) return `CURSOR_KEY is not base64url: ${fix}.`;
  if (Uint8Array.fromBase64(secret, { alphabet: "base64url" }).length !== KEY_BYTES)
    return `CURSOR_KEY is not 32 bytes: ${fix}.`;
  return null;
}

function cursorKey(env: object): Promise<CryptoKey> {
  const problem = cursorKeyProblem(env);
  // No client input leads here: the deployment lacks its secret, a 500 whose log line names the fix.
  if (problem) throw new Error(problem);
  const secret = (env as { CURSOR_KEY: string }).CURSOR_KEY;
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 4) keys.clear();
    const bytes = Uint8Array.fromBase64(secret, { alphabet: "base64url" });
    key = crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, key);
  }
  return key;
}

const toBase64Url = (bytes: Uint8Array) => bytes.toBase64({ alphabet: "base64url", omitPadding: true });

async function tagOf(env: object, scope: CursorScope, payload: string): Promise<Uint8Array> {
  const signed = encoder.encode(JSON.stringify([scope.list, scope.query, payload]));
  const mac = await crypto.subtle.sign("HMAC", await cursorKey(env), signed);
  return new Uint8Array(mac).subarray(0, TAG_BYTES);
}

/** The cursor of a place in the list `scope` names. */
export async function sealCursor(env: object, scope: CursorScope, place: CursorPlace): Promise<string> {
  const payload = toBase64Url(encoder.encode(JSON.stringify(place)));
  return `${payload}.${toBase64Url(await tagOf(env, scope, payload))}`;
}

/** The place a cursor names, when this deployment made it for this list and query; else the 400. */
export async function openCursor(env: object, scope: CursorScope, cursor: string): Promise<CursorPlace> {
  const refused = cursorProblem(
    scope.parameter,
    `is not a cursor of this query: pass the previous page's ${scope.source} as it is, or start without one`,
  );
  const [payload, tag, ...rest] = cursor.split(".");
  if (cursor.length > MAX_CURSOR_LENGTH || !payload || !tag || rest.length > 0) throw refused;
  if (!BASE64URL.test(payload) || !BASE64URL.test(tag) || tag.length % 4 === 1) throw refused;
  const presented = Uint8Array.fromBase64(tag, { alphabet: "base64url" });
  const expected = await tagOf(env, scope, payload);
  // Constant time: how much of a tag is right must not show in how long the refusal takes.
  if (presented.length !== expected.length || !crypto.subtle.timingSafeEqual(presented, expected)) throw refused;
  const place = JSON.parse(new TextDecoder().decode(Uint8Array.fromBase64(payload, { alphabet: "base64url" })));
  return place as CursorPlace;
}

/** The place a cursor of a list of `release` names, when `isPlace` takes it; else the 400. */
async function openPlace<Place>(
  env: object,
  scope: CursorScope,
  cursor: string,
  release: string | undefined,
  isPlace: (at: unknown) => at is Place,
): Promise<Place> {
  const place = await openCursor(env, scope, cursor);
  if (place.release === release && isPlace(place.at)) return place.at;
  const which = place.release === release ? "another list" : "another release";
  throw cursorProblem(scope.parameter, `is a cursor of ${which}: pass the previous page's ${scope.source} as it is`);
}

const isWholeNumber = (at: unknown): at is number => Number.isSafeInteger(at) && (at as number) >= 0;
const isText = (at: unknown): at is string => typeof at === "string";

/** The whole-number place (an offset, a sequence) a cursor of a list of `release` names; else the 400. */
export const openNumberCursor = (env: object, scope: CursorScope, cursor: string, release?: string) =>
  openPlace(env, scope, cursor, release, isWholeNumber);

/** The text place (a key, an id: the last entry of the previous page) a cursor names; else the 400. */
export const openTextCursor = (env: object, scope: CursorScope, cursor: string, release?: string) =>
  openPlace(env, scope, cursor, release, isText);

const cursorText = () =>
  z.string({ error: "must be given once" }).max(MAX_CURSOR_LENGTH, "is not a cursor of this list and query").optional();

/** The query parameter of an opaque cursor: the cursor of the previous page's `next`, never made by hand. */
export const cursorParam = (name: string) =>
  cursorText().openapi({
    param: { name, in: "query" },
    description: "Where the page starts: set by the previous page's `next` URL, never made by hand.",
  });

/** A changes cursor: a place (a byte offset) in the list from `since` to the release it carries. */
export const changesCursorScope = (sinceId: string, words: { parameter: string; source: string }): CursorScope => ({
  list: "changes",
  query: sinceId,
  ...words,
});

/** A number cursor's opener for the changes list of a pair (catalog/service/changes.ts `from`). */
export const changesCursorOpener =
  (env: object, cursor: string, words: { parameter: string; source: string }) =>
  ({ release, since }: { release: { release_id: string }; since: { release_id: string } }) =>
    openNumberCursor(env, changesCursorScope(since.release_id, words), cursor, release.release_id);

/** The cursor of the changes page that starts at `at`. */
export const sealChangesCursor = (
  env: object,
  { release, since }: { release: { release_id: string }; since: { release_id: string } },
  at: number,
  words: { parameter: string; source: string },
) => sealCursor(env, changesCursorScope(since.release_id, words), { release: release.release_id, at });

/**
 * `after`, the name the release history and the changes gave their cursor before every list named
 * it `cursor`: the same cursor, still taken for one release so that `next` URLs handed out before
 * keep paging (docs/contract.md, "Lists"); `next` spells `cursor`.
 */
const deprecatedAfterParam = cursorText().openapi({
  param: { name: "after", in: "query", deprecated: true },
  description: "Deprecated: the old name of `cursor`, taken until the next release. Never with `cursor`.",
});

/** The query fields of a list's cursor that still takes its old name `after`. */
export const cursorWithAfterAlias = { cursor: cursorParam("cursor"), after: deprecatedAfterParam };

/** Refines a query with `cursorWithAfterAlias`: one name or the other, never both. */
export const oneCursorName: [
  (query: { cursor?: string; after?: string }) => boolean,
  { message: string; path: string[] },
] = [
  (query) => query.cursor === undefined || query.after === undefined,
  { message: "give cursor or after (its deprecated name), not both", path: ["after"] },
];

/** The cursor a query presents and the name it came by (the 400 of a refused one names it). */
export function presentedCursor(query: { cursor?: string; after?: string }) {
  if (query.after !== undefined) return { cursor: query.after, parameter: "after" };
  return query.cursor === undefined ? undefined : { cursor: query.cursor, parameter: "cursor" };
}
