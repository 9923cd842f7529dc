/**
 * Verifies an OAuth access token presented as `Authorization: Bearer oat_…` on an API route:
 * the library loads the token's record (stored by hash), checks its expiry and that its audience
 * is this origin, and decrypts the grant's props. What comes back is what the authenticate
 * middleware needs: who (account), through which app (client), which grant (the rate-limit
 * subject, one bucket per grant) and the scopes the token carries.
 */
import { grantSubject } from "./grant-guard";
import { authorizationServer, type GrantProps } from "./provider";
import { ACCESS_TOKEN_PREFIX, grantOf, openToken } from "./token-format";

export interface VerifiedAccessToken {
  accountId: string;
  clientId: string;
  grantId: string;
  scopes: string[];
  /** Unix seconds. */
  expiresAt: number;
}

/** The token's facts, or null for anything that is not a live access token issued here. */
export async function verifyAccessToken(
  env: Env,
  issuer: string,
  presented: string,
  resource = issuer,
): Promise<VerifiedAccessToken | null> {
  const libraryToken = await openToken(env, "access", presented);
  if (!libraryToken) return null;
  // RFC 8707: the token's audience must be the resource asked for (the origin, or its MCP server).
  const validated = await authorizationServer(issuer).validateToken<GrantProps>(resource, libraryToken, env);
  if (!validated) return null;
  return {
    accountId: validated.props.accountId,
    clientId: validated.clientId,
    grantId: grantOf(libraryToken).grantId,
    scopes: validated.scope,
    expiresAt: validated.expiresAt,
  };
}

/**
 * Why the API refuses an access token that `verifyAccessToken` did not accept, in words. A token
 * that is authentically ours (it opens under our key) but whose grant's SubjectGuard is marked revoked
 * was revoked, as the API-key path says for a revoked key; anything else is unknown or expired.
 */
export async function refusedAccessTokenDetail(env: Env, presented: string): Promise<string> {
  const libraryToken = await openToken(env, "access", presented);
  const guard = libraryToken ? env.SUBJECT_GUARDS.getByName(grantSubject(grantOf(libraryToken).grantId)) : null;
  if (guard && (await guard.describe()).revoked) {
    return "The access token was revoked: the customer revoked the app's access, or the app revoked its token. Ask the customer to authorize the app again.";
  }
  if (!presented.startsWith(ACCESS_TOKEN_PREFIX))
    return "This credential is neither an API key (sk_live_… or sk_test_…) nor an OAuth access token (oat_…). Create an API key on the dashboard (/dashboard/keys); an app gets an access token at /oauth/token.";
  return "The access token is unknown, expired or was issued elsewhere. The app obtains a new one at /oauth/token (a refresh, or a new authorization).";
}
