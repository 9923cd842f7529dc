/**
 * Extension point for OAuth 2.0 access tokens: `authenticate` hands every Bearer credential that is
 * not an API key (does not start with `sk_`) to `resolveAccessToken`. It returns the principal the
 * token acts for (subject = the grant id, so each grant gets its own KeyGuard: revocation and rate
 * limit), or null for anything that is not a live access token issued by this deployment, which
 * `authenticate` answers with 401 `invalid_token`.
 *
 * Owned by the OAuth module (src/auth/oauth): until it fills this in, no access token is accepted.
 */
import type { Principal } from "./principal";

export async function resolveAccessToken(_env: Env, _requestUrl: string, _token: string): Promise<Principal | null> {
  return null;
}
