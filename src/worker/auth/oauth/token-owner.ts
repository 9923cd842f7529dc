/**
 * Who owns what at /oauth/revoke (RFC 7009 §2.1): the client a presented token was issued to, and
 * the client the request authenticates as. The library skips another client's token silently and
 * answers 200; these two let the endpoint refuse instead, and end a grant only for its owner.
 */
import { auth as basicCredentials } from "hono/utils/basic-auth";
import { verifyAccessToken } from "./access-token";
import { findGrant } from "./grant-revocation";
import { type OAuthHelpers, resourcesOf } from "./provider";
import { refreshTokenState } from "./refresh-reuse";
import { grantOf, type TokenKind } from "./token-format";

/** The client a token was issued to, when it is a valid token of ours; null for any other. */
export async function validTokenClient(
  env: Env,
  api: OAuthHelpers,
  token: { kind: TokenKind; presented: string; library: string; issuer: string },
): Promise<string | null> {
  if (token.kind === "access") return accessTokenClient(env, token.issuer, token.presented);
  // Only the grant's current refresh token is valid; its SubjectGuard knows which that is.
  if ((await refreshTokenState(env, token.library)) !== "current") return null;
  const { userId, grantId } = grantOf(token.library);
  return (await findGrant(api, userId, grantId))?.clientId ?? null;
}

/**
 * An access token's client, whatever its audience (RFC 8707): revocation works for tokens of every
 * resource of the issuer, the REST API and its MCP server alike.
 */
async function accessTokenClient(env: Env, issuer: string, presented: string): Promise<string | null> {
  for (const resource of resourcesOf(issuer)) {
    const verified = await verifyAccessToken(env, issuer, presented, resource);
    if (verified) return verified.clientId;
  }
  return null;
}

/**
 * The client_id a token-endpoint request authenticates with: the HTTP Basic user name, which
 * RFC 6749 §2.3.1 form-encodes, or the `client_id` field. Meaningful once the library accepted it;
 * null for a Basic header hono's parser does not read (then no token counts as the client's own).
 */
export function requestingClientId(request: Request, form: URLSearchParams): string | null {
  const basic = basicCredentials(request);
  if (!basic) return form.get("client_id");
  try {
    return decodeURIComponent(basic.username.replaceAll("+", " "));
  } catch {
    return null;
  }
}
