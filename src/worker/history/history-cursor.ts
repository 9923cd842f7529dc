/**
 * The one place profile-history cursors are made and read: `encodeHistoryCursor` /
 * `decodeHistoryCursor` (swap them for the shared cursor module in one place). A cursor is the last
 * row's place, base64url, with an HMAC-SHA-256 tag (RFC 2104) over it and what it pages (the
 * profile's scope or id), so a cursor edited by hand or sent for another profile is refused. The
 * key comes from the deployment's OAUTH_TOKEN_KEY; a cursor only ever names a place in public data.
 */
import { parameterProblem } from "../catalog/query-problem";

/** Where the next page starts: the last row's (event, product key, funnel key, id). */
export type HistoryPosition = [number, string, string, string];

const toBase64Url = (bytes: Uint8Array) => bytes.toBase64({ alphabet: "base64url", omitPadding: true });
const encoder = new TextEncoder();

const hmacKey = (secret: string) =>
  crypto.subtle.importKey(
    "raw",
    encoder.encode(`profile-history-cursor\n${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
const signed = (binding: string, payload: string) => encoder.encode(`${binding}\n${payload}`);

export async function encodeHistoryCursor(secret: string, binding: string, position: HistoryPosition): Promise<string> {
  const payload = toBase64Url(encoder.encode(JSON.stringify(position)));
  const tag = await crypto.subtle.sign("HMAC", await hmacKey(secret), signed(binding, payload));
  return `${payload}.${toBase64Url(new Uint8Array(tag))}`;
}

/** The position of a cursor made for `binding`, or the 400 invalid_cursor problem. */
export async function decodeHistoryCursor(secret: string, binding: string, cursor: string): Promise<HistoryPosition> {
  const refused = parameterProblem([
    {
      parameter: "cursor",
      path: "cursor",
      message: "is not a cursor of this history: follow the previous page's `next` URL as it is",
      code: "invalid_cursor",
    },
  ]);
  const [payload, tag, ...rest] = cursor.split(".");
  if (!payload || !tag || rest.length > 0 || !/^[A-Za-z0-9_-]+$/.test(payload + tag)) throw refused;
  const given = Uint8Array.fromBase64(tag, { alphabet: "base64url" });
  // HMAC verification compares the tags in constant time (WebCrypto's verify, RFC 2104).
  if (!(await crypto.subtle.verify("HMAC", await hmacKey(secret), given, signed(binding, payload)))) throw refused;
  const position = parsedPayload(payload);
  if (!isPosition(position)) throw refused;
  return position;
}

/** A payload whose tag verified is one this code made; parse defensively all the same. */
function parsedPayload(payload: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(Uint8Array.fromBase64(payload, { alphabet: "base64url" })));
  } catch {
    return undefined;
  }
}

function isPosition(value: unknown): value is HistoryPosition {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    Number.isInteger(value[0]) &&
    value.slice(1).every((part) => typeof part === "string")
  );
}
