/**
 * The wire form of the OAuth tokens and codes this server issues: opaque, so that nothing a
 * client or a redirect URL sees names the account or the grant.
 *
 * The library's tokens and codes are `userId:grantId:secret`, and the library needs that form
 * back (it finds the grant by it, and lists grants per userId, our account id). So we hand out
 * `oat_` (access), `ort_` (refresh) or `oac_` (code) + base64url(key id ‖ IV ‖ AES-256-GCM
 * ciphertext and tag) of that string, sealed under the deployment's OAUTH_TOKEN_KEY (token-key.ts)
 * with a random 96-bit IV and the prefix as associated data, so one kind cannot pass for another.
 * Authenticated encryption rather than a KV lookup from a random handle: no extra KV read per
 * request and nothing more stored; tampering fails the tag. The prefix is valid `b64token`
 * syntax (RFC 6750 §2.1) and tells tokens apart from `sk_` keys for the API and secret scanners.
 */
import { tokenKeys } from "./token-key";

export const ACCESS_TOKEN_PREFIX = "oat_";
export const REFRESH_TOKEN_PREFIX = "ort_";
export const CODE_PREFIX = "oac_";

/** `webhook_secret`: a webhook endpoint's signing secret at rest (src/worker/webhooks/webhook-store.ts), never handed out. */
export type TokenKind = "access" | "refresh" | "code" | "webhook_secret";

const PREFIX_OF: Record<TokenKind, string> = {
  access: ACCESS_TOKEN_PREFIX,
  refresh: REFRESH_TOKEN_PREFIX,
  code: CODE_PREFIX,
  webhook_secret: "whsealed_",
};
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAX_BODY_CHARS = 512; // a sealed library token is 139 characters
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const toBase64url = (bytes: Uint8Array) => bytes.toBase64({ alphabet: "base64url", omitPadding: true });

/** The bytes of canonical base64url only: one spelling per token (no variants in unused bits). */
function fromBase64url(text: string): Uint8Array | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1 || text.length > MAX_BODY_CHARS) return null;
  const bytes = Uint8Array.fromBase64(text, { alphabet: "base64url" });
  return toBase64url(bytes) === text ? bytes : null;
}

/** `userId:grantId:secret` → `oat_…` / `ort_…` / `oac_…`, sealed under the current key. */
export async function sealToken(env: object, kind: TokenKind, libraryToken: string): Promise<string> {
  const [current] = await tokenKeys(env);
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const additionalData = new TextEncoder().encode(PREFIX_OF[kind]);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData },
    current.key,
    new TextEncoder().encode(libraryToken),
  );
  return PREFIX_OF[kind] + toBase64url(new Uint8Array([current.id, ...iv, ...new Uint8Array(sealed)]));
}

/** The library's token behind a presented one, or null when it is not one of ours of that kind. */
export async function openToken(env: object, kind: TokenKind, presented: string): Promise<string | null> {
  const prefix = PREFIX_OF[kind];
  const bytes = presented.startsWith(prefix) ? fromBase64url(presented.slice(prefix.length)) : null;
  if (!bytes || bytes.length <= 1 + IV_BYTES + TAG_BYTES) return null;
  const params = {
    name: "AES-GCM",
    iv: bytes.subarray(1, 1 + IV_BYTES),
    additionalData: new TextEncoder().encode(prefix),
  };
  for (const { key } of (await tokenKeys(env)).filter((candidate) => candidate.id === bytes[0])) {
    // A wrong key (two keys can share an id byte) or any tampering fails the tag check.
    const opened = await crypto.subtle.decrypt(params, key, bytes.subarray(1 + IV_BYTES)).catch(() => null);
    if (opened) return new TextDecoder().decode(opened);
  }
  return null;
}

/** Which kind a presented token claims to be, by prefix alone. */
export function tokenKindOf(presented: string): TokenKind | null {
  if (presented.startsWith(ACCESS_TOKEN_PREFIX)) return "access";
  if (presented.startsWith(REFRESH_TOKEN_PREFIX)) return "refresh";
  return null;
}

/** The library's redirect with its `code` replaced by the sealed `oac_…` form. */
export async function withSealedCode(env: object, redirectTo: string): Promise<string> {
  const url = new URL(redirectTo);
  const code = url.searchParams.get("code");
  if (code) url.searchParams.set("code", await sealToken(env, "code", code));
  return url.toString();
}

/** The `userId` and `grantId` a library token names (its first two `:`-separated parts). */
export function grantOf(libraryToken: string): { userId: string; grantId: string } {
  const [userId = "", grantId = ""] = libraryToken.split(":");
  return { userId, grantId };
}
