/**
 * Makes the end of an OAuth grant immediate everywhere. The library deletes a revoked grant's
 * records from KV, which other locations may still serve for up to 60 s; every API request with
 * an access token also asks the grant's KeyGuard (its rate limiter, src/worker/limits), which is
 * strongly consistent, so marking the grant revoked there refuses its tokens at once (docs/contract.md
 * "Credentials": KV decides what a credential is, never that it is still valid).
 */
import { grantSubject } from "./grant-guard";
import type { GrantSummary, OAuthHelpers } from "./provider";

/** One of the user's grants, or null when there is no such grant (any more). */
export async function findGrant(api: OAuthHelpers, userId: string, grantId: string): Promise<GrantSummary | null> {
  let cursor: string | undefined;
  do {
    const page = await api.listUserGrants(userId, { cursor });
    const grant = page.items.find((item) => item.id === grantId);
    if (grant) return grant;
    cursor = page.cursor;
  } while (cursor);
  return null;
}

/** The scopes of one of the user's grants, or null when there is no such grant (any more). */
export async function grantScopes(api: OAuthHelpers, userId: string, grantId: string): Promise<string[] | null> {
  return (await findGrant(api, userId, grantId))?.scope ?? null;
}

export async function markGrantRevoked(env: Env, grantId: string): Promise<void> {
  await env.KEY_GUARDS.getByName(grantSubject(grantId)).revoke();
}
