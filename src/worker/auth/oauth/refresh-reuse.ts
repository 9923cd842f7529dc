/**
 * Refresh-token reuse detection (RFC 9700 §4.14.2). The library rotates refresh tokens but keeps
 * the previous one usable until its successor is used (a grace window for a lost response), and
 * only refuses an older one. Here a refresh token that was rotated away, presented again, ends the
 * whole grant: the previous token included, since a thief holding it looks exactly like a client
 * retrying. Every rotation is recorded in the grant's SubjectGuard, which is strongly consistent and
 * atomic, so of concurrent refreshes with one token one rotates it and the others are reuse. The
 * SubjectGuard knows tokens only by SHA-256.
 */
import { grantSubject } from "./grant-guard";
import { revokeGrantNow } from "./grant-revocation";
import type { OAuthHelpers } from "./provider";
import { grantOf } from "./token-format";

export const REUSED_REFRESH_TOKEN =
  "This refresh token was already used; the grant and all its tokens are revoked (RFC 9700 §4.14.2). Ask the customer to authorize the app again";

export async function refreshTokenId(libraryToken: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(libraryToken));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function guardOf(env: Env, libraryToken: string) {
  return env.SUBJECT_GUARDS.getByName(grantSubject(grantOf(libraryToken).grantId));
}

/** Revokes the grant in the SubjectGuard (at once, everywhere) and deletes its records from KV. */
async function endGrant(
  env: Env,
  api: OAuthHelpers,
  libraryToken: string,
  reason: "refresh_token_reused" | "grant_revoked",
): Promise<void> {
  const { userId, grantId } = grantOf(libraryToken);
  await revokeGrantNow(env, api, { grantId, userId });
  console.warn(
    JSON.stringify({
      level: "warn",
      oauth_error: "invalid_grant",
      category: "refresh-token-grant",
      reason,
      grant_id: grantId,
    }),
  );
}

/** What the grant's SubjectGuard knows of a refresh token: current, retired, unknown, or the grant revoked. */
export async function refreshTokenState(env: Env, libraryToken: string) {
  return guardOf(env, libraryToken).refreshTokenState(await refreshTokenId(libraryToken));
}

/** Before a refresh or revocation: ends the grant when the token was rotated away. True if it did. */
export async function endGrantIfReused(env: Env, api: OAuthHelpers, presented: string): Promise<boolean> {
  if ((await refreshTokenState(env, presented)) !== "retired") return false;
  await endGrant(env, api, presented, "refresh_token_reused");
  return true;
}

/**
 * After the library issued tokens (its 200 response, still in its own token form): records the new
 * refresh token as the grant's current one, retiring `presented` (null for a code exchange). False
 * when `presented` turned out to be a reuse, or the grant was revoked meanwhile: the grant is then
 * ended and the tokens must not go out.
 */
export async function recordIssuedRefreshToken(
  env: Env,
  api: OAuthHelpers,
  presented: string | null,
  response: Response,
): Promise<boolean> {
  const { refresh_token: issued } = await response.clone().json<{ refresh_token?: unknown }>();
  if (typeof issued !== "string") return true;
  const outcome = await guardOf(env, issued).rotateRefreshToken(
    presented && (await refreshTokenId(presented)),
    await refreshTokenId(issued),
  );
  if (outcome === "rotated" || presented === null) return true;
  await endGrant(env, api, issued, outcome === "reused" ? "refresh_token_reused" : "grant_revoked");
  return false;
}
