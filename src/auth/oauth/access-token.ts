/**
 * Verifies an OAuth access token presented as `Authorization: Bearer oat_…` on an API route:
 * the library loads the token's record (stored by hash), checks its expiry and that its audience
 * is this origin, and decrypts the grant's props. What comes back is what the authenticate
 * middleware needs: who (account), through which app (client), which grant (the rate-limit
 * subject, one bucket per grant) and the scopes the token carries.
 */
import { authorizationServer, type GrantProps } from "./provider";
import { grantOf, openToken } from "./token-format";

export interface VerifiedAccessToken {
  accountId: string;
  clientId: string;
  grantId: string;
  scopes: string[];
  /** Unix seconds. */
  expiresAt: number;
}

/** The token's facts, or null for anything that is not a live access token issued here. */
export async function verifyAccessToken(env: Env, issuer: string, presented: string): Promise<VerifiedAccessToken | null> {
  const libraryToken = await openToken(env, "access", presented);
  if (!libraryToken) return null;
  const validated = await authorizationServer(issuer).validateToken<GrantProps>(issuer, libraryToken, env);
  if (!validated) return null;
  return {
    accountId: validated.props.accountId,
    clientId: validated.clientId,
    grantId: grantOf(libraryToken).grantId,
    scopes: validated.scope,
    expiresAt: validated.expiresAt,
  };
}
