/**
 * The `scope` parameter of a code exchange or refresh. The library silently drops what the grant
 * does not hold, and our token policy silently drops `admin` until an operator approved it, so a
 * client asking for either would get a 200 with less than it asked for; we answer `invalid_scope`
 * instead (RFC 6749 §5.2: the requested scope exceeds what the resource owner granted).
 */
import { approvedTokenScopes, type AdminRequestStore } from "./admin-request-record";
import { ADMIN_SCOPE } from "../../../common/auth/scopes";

/** Why the requested scopes cannot be granted, or null when they can. */
export async function scopeRefusal(
  kv: AdminRequestStore,
  grant: { accountId: string; clientId: string; scopes: readonly string[] },
  requested: readonly string[],
): Promise<string | null> {
  const beyond = requested.filter((scope) => !grant.scopes.includes(scope));
  if (beyond.length > 0) {
    return `The grant does not include ${beyond.join(", ")}; a token request can only narrow the scopes the customer approved (RFC 6749 §6)`;
  }
  if (!requested.includes(ADMIN_SCOPE)) return null;
  const allowed = await approvedTokenScopes(kv, { ...grant, scopes: requested });
  if (allowed.includes(ADMIN_SCOPE)) return null;
  return "admin is granted only after an operator approves it for this app, and it is not approved yet; leave it out of scope until then";
}
