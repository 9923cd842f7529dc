/**
 * The wire form of the OAuth tokens and codes this server issues: opaque, so that nothing a
 * client or a redirect URL sees names the account or the grant.
 *
 * The library's tokens and codes are `userId:grantId:secret`, and the library needs that form
 * back (it finds the grant by it, and lists grants per userId, our account id). So we hand out
 * `oat_` (access), `ort_` (refresh) or `oac_` (code) + base64url(key id ‖ IV ‖ AES-256-GCM
 * ciphertext and tag) of that string, sealed under the deployment's OAUTH_TOKEN_KEY (token-key.ts)
 * by src/common/sealing.ts, with the prefix as associated data, so one kind cannot pass for another.
 * Authenticated encryption rather than a KV lookup from a random handle: no extra KV read per
 * request and nothing more stored; tampering fails the tag. The prefix is valid `b64token`
 * syntax (RFC 6750 §2.1) and tells tokens apart from `sk_` keys for the API and secret scanners.
 */
import { seal, unseal } from "../../../common/sealing";
import { tokenKeys } from "./token-key";

export const ACCESS_TOKEN_PREFIX = "oat_";
export const REFRESH_TOKEN_PREFIX = "ort_";
export const CODE_PREFIX = "oac_";

export type TokenKind = "access" | "refresh" | "code";

const PREFIX_OF: Record<TokenKind, string> = {
  access: ACCESS_TOKEN_PREFIX,
  refresh: REFRESH_TOKEN_PREFIX,
  code: CODE_PREFIX,
};

/** `userId:grantId:secret` → `oat_…` / `ort_…` / `oac_…`, sealed under the current key. */
export async function sealToken(env: object, kind: TokenKind, libraryToken: string): Promise<string> {
  const [current] = await tokenKeys(env);
  return seal(current, PREFIX_OF[kind], libraryToken);
}

/** The library's token behind a presented one, or null when it is not one of ours of that kind. */
export async function openToken(env: object, kind: TokenKind, presented: string): Promise<string | null> {
  return unseal(await tokenKeys(env), PREFIX_OF[kind], presented);
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
