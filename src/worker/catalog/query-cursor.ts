/**
 * Keyset cursors (docs/contract.md, "Querying the catalog"): where the next page starts (the last
 * row's sort value and place), bound to the release and the query that made it. The binding is a
 * SHA-256 tag over them, so a cursor changed by hand, or sent with other filters or another sort,
 * is refused (400 invalid_cursor) instead of silently paging something else. The tag is not secret:
 * it makes a cursor tamper-evident, and a cursor only ever names a place in public data.
 */
import type { Keyset } from "./query-plan";
import { parameterProblem } from "./query-problem";

const TAG_BYTES = 12;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const toBase64Url = (bytes: Uint8Array) => bytes.toBase64({ alphabet: "base64url", omitPadding: true });

async function tagOf(binding: string, payload: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${binding}\n${payload}`));
  return toBase64Url(new Uint8Array(digest).subarray(0, TAG_BYTES));
}

export async function encodeCursor(binding: string, keyset: Keyset): Promise<string> {
  const payload = toBase64Url(new TextEncoder().encode(JSON.stringify([keyset.value, keyset.seq])));
  return `${payload}.${await tagOf(binding, payload)}`;
}

/** The keyset of a cursor this query made, or the 400 invalid_cursor problem. */
export async function decodeCursor(binding: string, cursor: string): Promise<Keyset> {
  const refused = parameterProblem([
    {
      parameter: "cursor",
      path: "cursor",
      message: "is not a cursor of this query: follow the previous page's `next` URL as it is",
      code: "invalid_cursor",
    },
  ]);
  const [payload, tag, ...rest] = cursor.split(".");
  if (!payload || !tag || rest.length > 0 || tag !== (await tagOf(binding, payload))) throw refused;
  try {
    if (!BASE64URL.test(payload)) throw refused;
    const bytes = Uint8Array.fromBase64(payload, { alphabet: "base64url" });
    const [value, seq] = JSON.parse(new TextDecoder().decode(bytes)) as unknown[];
    if ((typeof value === "string" || typeof value === "number") && Number.isInteger(seq))
      return { value, seq: seq as number };
  } catch {
    // A tag that matches but a payload that does not parse is not a cursor this code made.
  }
  throw refused;
}
