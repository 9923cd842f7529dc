/**
 * Makes the end of an OAuth grant immediate everywhere. The library deletes a revoked grant's
 * records from KV, which other locations may still serve for up to 60 s; every API request with
 * an access token also asks the grant's SubjectGuard (its rate limiter, src/worker/limits), which is
 * strongly consistent, so marking the grant revoked there refuses its tokens at once (docs/contract.md
 * "Credentials": KV decides what a credential is, never that it is still valid).
 */
import { dropAdminRequest } from "./admin-request-record";
import { grantSubject } from "./grant-guard";
import type { GrantSummary, OAuthHelpers } from "./provider";

/** Every grant of the user, across the library's pages. */
export async function everyGrant(api: OAuthHelpers, userId: string): Promise<GrantSummary[]> {
  const grants: GrantSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.listUserGrants(userId, { cursor });
    grants.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return grants;
}

/** One of the user's grants, or null when there is no such grant (any more). */
export async function findGrant(api: OAuthHelpers, userId: string, grantId: string): Promise<GrantSummary | null> {
  return (await everyGrant(api, userId)).find((grant) => grant.id === grantId) ?? null;
}

/** The scopes of one of the user's grants, or null when there is no such grant (any more). */
export async function grantScopes(api: OAuthHelpers, userId: string, grantId: string): Promise<string[] | null> {
  return (await findGrant(api, userId, grantId))?.scope ?? null;
}

export async function markGrantRevoked(env: Env, grantId: string): Promise<void> {
  await env.SUBJECT_GUARDS.getByName(grantSubject(grantId)).revoke();
}

/** Revokes one grant's tokens at once everywhere, then deletes its records from the library. */
export async function revokeGrantNow(env: Env, api: OAuthHelpers, grant: { grantId: string; userId: string }) {
  await markGrantRevoked(env, grant.grantId);
  await api.revokeGrant(grant.grantId, grant.userId);
}

/**
 * The customer (dashboard) or the app (/oauth/revoke) ended a grant: its tokens stop at once, and
 * the `admin` approval of that (account, app) goes with it, so a new grant asks an operator again.
 */
export async function endGrant(
  env: Env,
  api: OAuthHelpers,
  grant: { grantId: string; userId: string; clientId: string },
): Promise<void> {
  await revokeGrantNow(env, api, grant);
  await dropAdminRequest(env.OAUTH_KV, grant.userId, grant.clientId);
}
