/**
 * Extension point for OAuth 2.0 access tokens: `authenticate` hands every Bearer credential that is
 * not an API key (does not start with `sk_`) to `resolveAccessToken`. It returns the principal the
 * token acts for (subject = the grant id, so each grant gets its own SubjectGuard: revocation and rate
 * limit), or null for anything that is not a live access token issued by this deployment, which
 * `authenticate` answers with 401 `invalid_token`.
 *
 * Filled by the OAuth module: src/worker/auth/oauth/access-token.ts verifies the token with the library.
 */
import { grantSubject } from "./oauth/grant-guard";
import { verifyAccessToken } from "./oauth/access-token";
import type { Principal } from "./principal";
import { isScope } from "../../common/auth/scopes";

export async function resolveAccessToken(
  env: Env,
  issuer: string,
  token: string,
  resource = issuer,
): Promise<Principal | null> {
  const verified = await verifyAccessToken(env, issuer, token, resource);
  if (!verified) return null;
  return {
    kind: "access_token",
    subject: grantSubject(verified.grantId),
    accountId: verified.accountId,
    mode: env.KEY_MODE,
    scopes: verified.scopes.filter(isScope),
    clientId: verified.clientId,
  };
}
