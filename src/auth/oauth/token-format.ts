/**
 * The wire form of the OAuth tokens this server issues.
 *
 * The library's tokens are `userId:grantId:secret`, but `:` is not a `b64token` character
 * (RFC 6750 §2.1), so a strict client or proxy may refuse `Authorization: Bearer a:b:c`. We hand
 * out `oat_` (access) and `ort_` (refresh) + base64url of that string instead: valid bearer
 * syntax, and a prefix that tells the API apart from `sk_` keys and that secret scanners can match.
 * Pure; runs in workerd and Node.
 */
export const ACCESS_TOKEN_PREFIX = "oat_";
export const REFRESH_TOKEN_PREFIX = "ort_";

export type TokenKind = "access" | "refresh";

const PREFIX_OF: Record<TokenKind, string> = { access: ACCESS_TOKEN_PREFIX, refresh: REFRESH_TOKEN_PREFIX };
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** `userId:grantId:secret` → `oat_…` / `ort_…`. */
export function encodeToken(kind: TokenKind, libraryToken: string): string {
  const bytes = new TextEncoder().encode(libraryToken);
  const base64 = btoa(String.fromCharCode(...bytes));
  return PREFIX_OF[kind] + base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The library's token behind a presented one, or null when it is not one of ours of that kind. */
export function decodeToken(kind: TokenKind, presented: string): string | null {
  const prefix = PREFIX_OF[kind];
  if (!presented.startsWith(prefix)) return null;
  const body = presented.slice(prefix.length);
  if (!BASE64URL.test(body) || body.length % 4 === 1) return null;
  const base64 = body.replaceAll("-", "+").replaceAll("_", "/").padEnd(Math.ceil(body.length / 4) * 4, "=");
  let text: string;
  try {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
  const parts = text.split(":");
  return parts.length === 3 && parts.every((part) => part.length > 0) ? text : null;
}

/** Which kind a presented token claims to be, by prefix alone. */
export function tokenKindOf(presented: string): TokenKind | null {
  if (presented.startsWith(ACCESS_TOKEN_PREFIX)) return "access";
  if (presented.startsWith(REFRESH_TOKEN_PREFIX)) return "refresh";
  return null;
}

/** The `userId` and `grantId` a library token names (its first two `:`-separated parts). */
export function grantOf(libraryToken: string): { userId: string; grantId: string } {
  const [userId = "", grantId = ""] = libraryToken.split(":");
  return { userId, grantId };
}
