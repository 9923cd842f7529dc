/**
 * The OAuth grants of an account, as the "Authorized apps" page shows them, and their
 * revocation. Grants live in the OAuth library (through src/worker/auth/oauth/provider.ts); revoking
 * one marks it revoked in its SubjectGuard first, which refuses its access tokens at the very next
 * request everywhere, then deletes the grant and its tokens from the library and the app's `admin`
 * approval, as POST /oauth/revoke does (src/worker/auth/oauth/grant-revocation.ts).
 */
import { readAdminRequest, type AdminRequest } from "../auth/oauth/admin-request-record";
import { endGrant, everyGrant, findGrant } from "../auth/oauth/grant-revocation";
import { isMetadataDocumentClientId } from "../auth/oauth/client-metadata/document-url";
import { type ClientInfo, oauthApi } from "../auth/oauth/provider";
import { ADMIN_SCOPE } from "../../common/auth/scopes";
import { fitsStorageKey } from "../http/identifier-length";

export interface AuthorizedApp {
  grantId: string;
  clientId: string;
  appName: string;
  scopes: string[];
  /** Unix seconds. */
  grantedAt: number;
  /** For a grant that asked for `admin`: whether an operator has approved it yet. */
  adminRequest: AdminRequest["status"] | null;
}

/**
 * How the dashboard names an app, as the consent page did: a metadata document client by the host
 * that published its document (its grants keep that name after its record expired), a registered
 * one by its name.
 */
const nameOf = (clientId: string, client: ClientInfo | null) =>
  isMetadataDocumentClientId(clientId) && URL.canParse(clientId)
    ? `the app at ${new URL(clientId).host}`
    : (client?.clientName ?? clientId);

/** The name of an OAuth client from the client registry, or undefined when there is no such client. */
export async function appNameOf(env: Env, requestUrl: string, clientId: string): Promise<string | undefined> {
  if (!fitsStorageKey(clientId)) return undefined;
  const client = await oauthApi(env, requestUrl).lookupClient(clientId);
  return client ? nameOf(clientId, client) : undefined;
}

/** The account's grants, newest first, with each app's registered name. */
export async function authorizedApps(env: Env, requestUrl: string, accountId: string): Promise<AuthorizedApp[]> {
  const api = oauthApi(env, requestUrl);
  const grants = await everyGrant(api, accountId);
  const names = new Map<string, Promise<string>>();
  const appName = (clientId: string) => {
    const known = names.get(clientId);
    if (known) return known;
    const name = api.lookupClient(clientId).then((client) => nameOf(clientId, client));
    names.set(clientId, name);
    return name;
  };
  const apps = await Promise.all(
    grants.map(async (grant) => ({
      grantId: grant.id,
      clientId: grant.clientId,
      appName: await appName(grant.clientId),
      scopes: grant.scope,
      grantedAt: grant.createdAt,
      adminRequest: grant.scope.includes(ADMIN_SCOPE)
        ? ((await readAdminRequest(env.OAUTH_KV, accountId, grant.clientId))?.status ?? "pending")
        : null,
    })),
  );
  return apps.sort((a, b) => b.grantedAt - a.grantedAt);
}

/** The account's grant with this id, or null (unknown, or another account's). */
export async function authorizedApp(
  env: Env,
  requestUrl: string,
  accountId: string,
  grantId: string,
): Promise<AuthorizedApp | null> {
  return (await authorizedApps(env, requestUrl, accountId)).find((app) => app.grantId === grantId) ?? null;
}

/** Ends one of the account's grants at once. False when the account has no such grant. */
export async function revokeAuthorizedApp(
  env: Env,
  requestUrl: string,
  accountId: string,
  grantId: string,
): Promise<boolean> {
  const api = oauthApi(env, requestUrl);
  // Only a grant listed under this account may be touched: the SubjectGuard is named by grant id alone.
  const grant = await findGrant(api, accountId, grantId);
  if (!grant) return false;
  await endGrant(env, api, { grantId, userId: accountId, clientId: grant.clientId });
  return true;
}
