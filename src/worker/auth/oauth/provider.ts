/**
 * The one module that talks to `@cloudflare/workers-oauth-provider` (pinned 1.2.3). Everything
 * else imports from here, so the library can be swapped or upgraded in one place.
 *
 * We use its role API, `OAuthAuthorizationServer`: Hono owns the routes, the library owns client
 * records, grants, hashed tokens and the token/revocation protocol. Clients come from the operator
 * CLI, or register themselves as public clients (RFC 7591, dynamic-registration.ts).
 *
 * Where the library is looser than our contract (RFC 9700), this module and the routes close the
 * gap: codes live 60 s, not 10 min (checked in `tokenExchangeCallback`); `admin` only reaches a
 * token once an operator approved it.
 */
import {
  AuthorizationError,
  OAuthAuthorizationServer,
  OAuthError,
  type AuthRequest,
  type ClientInfo,
  type GrantSummary,
  type OAuthHelpers,
  type TokenExchangeCallbackOptions,
  type TokenExchangeCallbackResult,
} from "@cloudflare/workers-oauth-provider";
import { approvedTokenScopes, type AdminRequestStore } from "./admin-request-record";
import { grantSubject, type GrantGuard } from "./grant-guard";
import { SCOPES } from "../../../common/auth/scopes";
import { mcpResourceOf } from "../../mcp/resource-id";
import { dynamicRegistrationOptions } from "./dynamic-registration";

export { AuthorizationError, type AuthRequest, type ClientInfo, type GrantSummary, type OAuthHelpers };

export const OAUTH_ENDPOINTS = {
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  revoke: "/oauth/revoke",
  metadata: "/.well-known/oauth-authorization-server",
} as const;

/** Our contract: one-time codes expire in 60 s (RFC 6749 §4.1.2 recommends at most 10 min). */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/**
 * The bindings the library and this module use. The worker's `Env` has them, and so does the
 * operator CLI's platform proxy (scripts/clients.ts), which is why this is structural. The proxy
 * has no SUBJECT_GUARDS: it manages clients and never issues a token.
 */
export interface OAuthEnv {
  OAUTH_KV: AdminRequestStore;
  SUBJECT_GUARDS?: { getByName(name: string): GrantGuard };
}

/** What a grant carries for the API (encrypted by the library with a key only the token unwraps). */
export interface GrantProps {
  accountId: string;
  /** Unix seconds when the customer approved: the code's birth, for the 60 s expiry. */
  authorizedAt: number;
}

const servers = new Map<string, OAuthAuthorizationServer<OAuthEnv>>();
const MAX_CACHED_ISSUERS = 16;

/** The protected resources (RFC 8707) of an issuer: the REST API (the origin) and its MCP server. */
export const resourcesOf = (issuer: string): [string, string] => [issuer, mcpResourceOf(issuer)];

/**
 * The server for one issuer (RFC 8414 §2): a configured public origin of the deployment
 * (src/worker/http/public-origin.ts). Its resources (RFC 8707) are the origin itself (the REST
 * API, the default) and its MCP server (`<origin>/mcp`), so tokens issued at
 * `https://api.example.com` are only valid there, and only for the resource they were asked for.
 */
export function authorizationServer(issuer: string): OAuthAuthorizationServer<OAuthEnv> {
  let server = servers.get(issuer);
  if (!server) {
    if (servers.size >= MAX_CACHED_ISSUERS) servers.clear();
    server = new OAuthAuthorizationServer<OAuthEnv>({
      issuer,
      resources: resourcesOf(issuer),
      defaultResource: issuer,
      legacyGrantResource: issuer,
      ...dynamicRegistrationOptions,
      authorizeEndpoint: OAUTH_ENDPOINTS.authorize,
      tokenEndpoint: OAUTH_ENDPOINTS.token,
      scopesSupported: [...SCOPES],
      accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTTL: REFRESH_TOKEN_TTL_SECONDS,
      tokenExchangeCallback: enforceGrantPolicy,
      onError: ({ status, code, internal }) => {
        console.warn(
          JSON.stringify({
            level: "warn",
            oauth_error: code,
            status,
            category: internal.category,
            reason: internal.reason,
          }),
        );
      },
    });
    servers.set(issuer, server);
  }
  return server;
}

/** The library's helpers for an issuer: the request's public origin, or any URL on it. */
export function oauthApi(env: OAuthEnv, publicOrigin: string | URL): OAuthHelpers {
  return authorizationServer(new URL(publicOrigin).origin).getOAuthApi(env);
}

/** Client and grant management (operator CLI), which no issuer affects. */
export function registryApi(env: OAuthEnv): OAuthHelpers {
  return authorizationServer("http://localhost").getOAuthApi(env);
}

/**
 * Registers a client, the one way this server does it (operator CLI, `npm start`'s demo, tests).
 * A confidential client is stored without an explicit `token_endpoint_auth_method`: the library then
 * accepts its secret by `client_secret_basic` or `client_secret_post` (RFC 6749 §2.3.1), both of
 * which the metadata advertises; an explicit method would be enforced alone.
 */
export async function registerClient(
  api: OAuthHelpers,
  client: { name: string; redirectUris: string[]; isPublic: boolean },
): Promise<ClientInfo> {
  const publicAuth = client.isPublic ? { tokenEndpointAuthMethod: "none" } : {};
  // The library draws ids from base64url and takes none of ours, so one in 64 would start with "-",
  // which a command line takes for an option (`--client -Xy…`): such a client is deleted unused.
  for (let draw = 1; draw <= MAX_CLIENT_ID_DRAWS; draw++) {
    const created = await api.createClient({
      clientName: client.name,
      redirectUris: client.redirectUris,
      ...publicAuth,
    });
    if (!created.clientId.startsWith("-")) return created;
    await api.deleteClient(created.clientId);
  }
  throw new Error(`the OAuth library returned ${MAX_CLIENT_ID_DRAWS} client ids in a row that start with "-"`);
}

/** (1/64)^8: a ninth "-" in a row means the ids are no longer drawn at random. */
const MAX_CLIENT_ID_DRAWS = 8;

/**
 * Runs on every code exchange and refresh, after the library's own checks (code, client, PKCE
 * verifier, redirect_uri) and before issuance. An `invalid_grant` thrown here also makes the
 * library revoke the grant and its tokens.
 */
async function enforceGrantPolicy(
  options: TokenExchangeCallbackOptions<OAuthEnv>,
): Promise<TokenExchangeCallbackResult> {
  const props = options.props as GrantProps;
  if (!options.env.SUBJECT_GUARDS)
    throw new Error("Issuing tokens needs the SUBJECT_GUARDS binding (the grant's SubjectGuard)");
  const guard = options.env.SUBJECT_GUARDS.getByName(grantSubject(options.grantId));
  if (options.grantType === "authorization_code") {
    const age = Math.floor(Date.now() / 1000) - props.authorizedAt;
    // The library keeps codes 10 min; ours expire after 60 s.
    if (!(age <= AUTHORIZATION_CODE_TTL_SECONDS)) {
      throw new OAuthError("invalid_grant", {
        description: `Authorization code expired (codes are valid for ${AUTHORIZATION_CODE_TTL_SECONDS} seconds)`,
        internal: { category: "authorization-code-grant", reason: "code_expired" },
      });
    }
    // RFC 6749 §4.1.2, RFC 9700 §4.5.3: a code used twice revokes what was issued from it. Only a
    // redemption that passed every check gets here, so a failed attempt cannot use a code up; the
    // claim is atomic, unlike the library's KV read-then-write, so concurrent ones cannot all win.
    // The SubjectGuard is marked first: the library may still be writing the winner's tokens to KV.
    if (!(await guard.claimAuthorizationCode())) {
      await guard.revoke();
      throw new OAuthError("invalid_grant", {
        description: "Authorization code already used; the tokens issued from it are revoked",
        internal: { category: "authorization-code-grant", reason: "code_replayed" },
      });
    }
  } else if ((await guard.describe()).revoked) {
    // KV may still hold a revoked grant (other locations, or the write of a racing code exchange).
    throw new OAuthError("invalid_grant", {
      description: "The grant was revoked; ask the customer to authorize the app again",
      internal: { category: "refresh-token-grant", reason: "grant_revoked" },
    });
  }
  const accessTokenScope = await approvedTokenScopes(options.env.OAUTH_KV, {
    accountId: options.userId,
    clientId: options.clientId,
    scopes: options.requestedScope,
  });
  return { accessTokenScope };
}
