/**
 * `POST /oauth/token` and `POST /oauth/revoke` (RFC 7009): thin adapters in front of the library,
 * which serves both at its token endpoint. They translate our sealed `oat_`/`ort_`/`oac_` form
 * (see token-format.ts) in both directions and close the gaps the library leaves open:
 * - `grant_type` is required at /oauth/token (RFC 6749 §4.1.3); without it the library would
 *   take a request carrying `token` for a revocation.
 * - a token request may only narrow the grant's scopes (RFC 6749 §6), and may ask for `admin`
 *   only once it is approved: `invalid_scope` (token-scope.ts), where the library drops them silently.
 * - a `code_verifier` must have the syntax of RFC 7636 §4.1; the library only compares its hash.
 * - the revocation endpoint accepts only revocations, and refuses another client's token with
 *   `unauthorized_client` (RFC 7009 §2.1) where the library answers 200 and does nothing.
 * - a refresh token rotated away and presented again ends the grant (refresh-reuse.ts).
 * One-time codes and revoked grants are enforced in provider.ts (`enforceGrantPolicy`), where the
 * library has checked the code and before it issues tokens: the grant's SubjectGuard decides.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { fitsStorageKey, MAX_IDENTIFIER_BYTES } from "../../http/identifier-length";
import { endGrant, findGrant, grantScopes, markGrantRevoked } from "./grant-revocation";
import { isCodeVerifier } from "./pkce";
import { authorizationServer, OAUTH_ENDPOINTS, oauthApi } from "./provider";
import { endGrantIfReused, recordIssuedRefreshToken, REUSED_REFRESH_TOKEN } from "./refresh-reuse";
import { grantOf, openToken, sealToken, tokenKindOf } from "./token-format";
import { tokenKeyProblem } from "./token-key";
import { requestingClientId, validTokenClient } from "./token-owner";
import { scopeRefusal } from "./token-scope";
import { tokenClientProblems } from "./client-metadata/resolve";

const MAX_FORM_BYTES = 16 * 1024;
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** An RFC 6749 §5.2 error response. */
export function oauthErrorResponse(error: string, description: string, status = 400): Response {
  return Response.json({ error, error_description: description }, { status, headers: NO_STORE });
}

type FormRead = { form: URLSearchParams } | { response: Response };

async function readForm(request: Request): Promise<FormRead | null> {
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (request.method !== "POST" || type !== "application/x-www-form-urlencoded") return null; // the library's own 405/400
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  // Decoded by hand: workerd warns on .text() of a body that is not text/* (a form is ASCII anyway).
  const text = declared > MAX_FORM_BYTES ? null : new TextDecoder().decode(await request.arrayBuffer());
  if (text === null || text.length > MAX_FORM_BYTES) {
    return {
      response: oauthErrorResponse("invalid_request", `The request body is larger than ${MAX_FORM_BYTES} bytes`, 413),
    };
  }
  return { form: new URLSearchParams(text) };
}

/** The fields and credentials that name stored records, refused when too long for a KV key. */
function overlongIdentifier(request: Request, form: URLSearchParams, fields: readonly string[]): Response | null {
  // The Basic user name (when sent) and every client_id field.
  const clientIds = [...form.getAll("client_id"), requestingClientId(request, form) ?? ""];
  if (clientIds.some((clientId) => !fitsStorageKey(clientId)))
    return oauthErrorResponse(
      "invalid_client",
      `client_id is longer than ${MAX_IDENTIFIER_BYTES} bytes (UTF-8), so no client has it (RFC 6749 §5.2)`,
      401,
    );
  const long = fields.find((field) => form.getAll(field).some((value) => !fitsStorageKey(value)));
  if (long)
    return oauthErrorResponse(
      "invalid_request",
      `${long} is longer than ${MAX_IDENTIFIER_BYTES} bytes (UTF-8), so it is none of ours (RFC 6749 §5.2)`,
    );
  return null;
}

/** The library's protocol endpoints for the issuer this request reached. */
export function serveProtocol(c: Context<AppEnv>, request: Request): Promise<Response> {
  // Hono's ExecutionContext type predates workerd's newer members; the object is the runtime's own.
  return authorizationServer(c.var.publicOrigin).fetch(request, c.env, c.executionCtx as unknown as ExecutionContext);
}

/** Hands the (rewritten) form to the library's token endpoint on the issuer's origin. */
function forward(c: Context<AppEnv>, form: URLSearchParams): Promise<Response> {
  const headers = new Headers(c.req.raw.headers);
  headers.delete("Content-Length");
  const url = new URL(OAUTH_ENDPOINTS.token, c.var.publicOrigin);
  return serveProtocol(c, new Request(url, { method: "POST", headers, body: form.toString() }));
}

/** The library's `userId:grantId:…` tokens in a successful token response, sealed as `oat_`/`ort_`. */
async function withOurTokenForm(env: Env, response: Response): Promise<Response> {
  if (response.status !== 200) return response;
  const body = await response.json<Record<string, unknown>>();
  if (typeof body.access_token === "string") body.access_token = await sealToken(env, "access", body.access_token);
  if (typeof body.refresh_token === "string") body.refresh_token = await sealToken(env, "refresh", body.refresh_token);
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  for (const [name, value] of Object.entries(NO_STORE)) headers.set(name, value);
  return new Response(JSON.stringify(body), { status: 200, headers });
}

export async function tokenEndpoint(c: Context<AppEnv>): Promise<Response> {
  const read = await readForm(c.req.raw);
  if (read === null) return serveProtocol(c, c.req.raw);
  if ("response" in read) return read.response;
  const form = read.form;
  const grantType = form.get("grant_type");
  if (!grantType)
    return oauthErrorResponse(
      "invalid_request",
      "grant_type is required (authorization_code or refresh_token); to revoke a token use /oauth/revoke",
    );
  const overlong = overlongIdentifier(c.req.raw, form, ["code", "refresh_token"]);
  if (overlong) return overlong;
  const documentProblems = await tokenClientProblems(c.env, form);
  if (documentProblems)
    return oauthErrorResponse("invalid_client", `client_id's metadata document: ${documentProblems.join("; ")}`, 401);
  // No key, no token can be read or issued: refuse before the library uses a code up.
  const keyProblem = tokenKeyProblem(c.env);
  if (keyProblem) return oauthErrorResponse("temporarily_unavailable", keyProblem, 503);
  const [verifier, ...moreVerifiers] = form.getAll("code_verifier");
  // RFC 7636 §4.1: checked before the library hashes and compares it.
  const oneVerifier = verifier !== undefined && moreVerifiers.length === 0;
  if (grantType === "authorization_code" && oneVerifier && !isCodeVerifier(verifier)) {
    return oauthErrorResponse(
      "invalid_request",
      "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)",
    );
  }

  // A token that does not open goes to the library as it came: the library authenticates the
  // client first (RFC 6749 §3.2.1), then refuses it as invalid_grant, which it cannot parse.
  let libraryToken: string | null = null;
  if (grantType === "refresh_token" && form.getAll("refresh_token").length === 1) {
    libraryToken = await openToken(c.env, "refresh", form.get("refresh_token") ?? "");
    if (libraryToken) form.set("refresh_token", libraryToken);
  } else if (grantType === "authorization_code" && form.getAll("code").length === 1) {
    libraryToken = await openToken(c.env, "code", form.get("code") ?? "");
    if (libraryToken) form.set("code", libraryToken);
  }

  const requested = form.getAll("scope").length === 1 ? (form.get("scope") ?? "").split(" ").filter(Boolean) : [];
  const api = oauthApi(c.env, c.var.publicOrigin);
  const presentedRefresh = grantType === "refresh_token" ? libraryToken : null;
  // RFC 9700 §4.14.2: checked first, so that no other answer tells a reused token apart.
  if (presentedRefresh && (await endGrantIfReused(c.env, api, presentedRefresh)))
    return oauthErrorResponse("invalid_grant", REUSED_REFRESH_TOKEN);
  const grant = libraryToken ? grantOf(libraryToken) : null;
  // The grant is read only when it matters: a scope to check, or a code whose misuse revokes it.
  const granted =
    grant && (requested.length > 0 || grantType === "authorization_code")
      ? await findGrant(api, grant.userId, grant.grantId)
      : null;
  const refusal = granted
    ? await scopeRefusal(
        c.env.OAUTH_KV,
        { accountId: granted.userId, clientId: granted.clientId, scopes: granted.scope },
        requested,
      )
    : null;
  if (refusal) return oauthErrorResponse("invalid_scope", refusal);
  const response = await forward(c, form);
  if (response.status === 200 && !(await recordIssuedRefreshToken(c.env, api, presentedRefresh, response))) {
    return oauthErrorResponse("invalid_grant", REUSED_REFRESH_TOKEN);
  }
  // RFC 6749 §4.1.2: on a replayed (or expired) code the library revoked the grant and its tokens.
  if (
    grant &&
    granted &&
    grantType === "authorization_code" &&
    response.status === 400 &&
    (await grantScopes(api, grant.userId, grant.grantId)) === null
  ) {
    await markGrantRevoked(c.env, grant.grantId);
  }
  return withOurTokenForm(c.env, response);
}

export async function revocationEndpoint(c: Context<AppEnv>): Promise<Response> {
  const read = await readForm(c.req.raw);
  if (read === null) {
    if (c.req.method !== "POST") return oauthErrorResponse("invalid_request", "Use POST (RFC 7009 §2.1)", 405);
    return oauthErrorResponse(
      "invalid_request",
      "Content-Type must be application/x-www-form-urlencoded (RFC 7009 §2.1)",
    );
  }
  if ("response" in read) return read.response;
  const form = read.form;
  if (form.has("grant_type"))
    return oauthErrorResponse(
      "invalid_request",
      "This is the revocation endpoint (RFC 7009); send grant requests to /oauth/token",
    );
  const presented = form.getAll("token");
  if (presented.length !== 1 || !presented[0])
    return oauthErrorResponse("invalid_request", "token is required, exactly once (RFC 7009 §2.1)");
  const overlong = overlongIdentifier(c.req.raw, form, ["token"]);
  if (overlong) return overlong;
  // RFC 7009 §2.2.1: a 503 tells the client the token may still be valid and to retry.
  const keyProblem = tokenKeyProblem(c.env);
  if (keyProblem) return oauthErrorResponse("temporarily_unavailable", keyProblem, 503);
  const token = presented[0];
  const kind = tokenKindOf(token);
  const libraryToken = kind ? await openToken(c.env, kind, token) : null;
  const api = oauthApi(c.env, c.var.publicOrigin);
  const grant = libraryToken ? grantOf(libraryToken) : null;
  if (kind === "refresh" && libraryToken) await endGrantIfReused(c.env, api, libraryToken);
  const owner =
    kind && libraryToken
      ? await validTokenClient(c.env, api, {
          kind,
          presented: token,
          library: libraryToken,
          issuer: c.var.publicOrigin,
        })
      : null;

  // RFC 7009 §2.2: an unknown or invalid token is not an error; the library still authenticates
  // the client and then answers 200 for a token it cannot parse.
  form.set("token", libraryToken ?? token);
  if (kind && !form.has("token_type_hint"))
    form.set("token_type_hint", kind === "access" ? "access_token" : "refresh_token");
  const response = await forward(c, form);

  // A 200 means the library authenticated the client; it revoked the token only if it is the owner.
  if (grant && owner && response.status === 200) {
    // RFC 7009 §2.1, §2.2.1: another client's valid token is refused and left as it is.
    if (owner !== requestingClientId(c.req.raw, form)) {
      return oauthErrorResponse(
        "unauthorized_client",
        "This token was not issued to this client; a client can only revoke its own tokens (RFC 7009 §2.1)",
      );
    }
    // Revoking either token ends the whole grant (RFC 7009 §2.1 allows it for an access token).
    await endGrant(c.env, api, { ...grant, clientId: owner });
  }
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(NO_STORE)) headers.set(name, value);
  return new Response(response.body, { status: response.status, headers });
}
