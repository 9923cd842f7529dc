/**
 * Validates a `GET /oauth/authorize` request. Every failure is answered on our own error page,
 * never by a redirect: before the client and its exact redirect URI are known good a redirect
 * would be an open one (RFC 6749 §4.1.2.1), and after, anyone can register a client whose redirect
 * URI is a phishing page and craft a failing request that would bounce the customer there without
 * a click (RFC 9700 §4.11.2). The client hears of an error by redirect only once the customer
 * saw the consent page and chose Deny (authorize.tsx). The library validates the rest; the checks
 * here are the ones it leaves to us: exact redirect match including loopback ports, PKCE for
 * every client, and scopes that exist.
 */
import { fitsStorageKey, MAX_IDENTIFIER_BYTES } from "../../http/identifier-length";
import { isS256Challenge } from "./pkce";
import { isRegisteredRedirectUri } from "../../../common/auth/redirect-uri";
import { AuthorizationError, type AuthRequest, type ClientInfo, type OAuthHelpers } from "./provider";
import { isScope, SCOPES } from "../../../common/auth/scopes";
import { isMetadataDocumentClientId } from "./client-metadata/document-url";
import type { Resolution } from "./client-metadata/resolve";

/** Fetches (or finds stored) the Client ID Metadata Document a `client_id` URL names. */
export type DocumentResolver = (clientId: string) => Promise<Resolution>;

export type AuthorizeOutcome =
  | { kind: "error-page"; title: string; detail: string }
  | { kind: "valid"; request: AuthRequest; client: ClientInfo };

const SINGLE_VALUED = [
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "resource",
];

function errorPage(title: string, detail: string): AuthorizeOutcome {
  return { kind: "error-page", title, detail };
}

/** An RFC 6749 §4.1.2.1 error of a request whose client and redirect URI are known good. */
function invalidRequest(code: string, description: string): AuthorizeOutcome {
  return errorPage(
    "Invalid authorization request",
    `${description} (${code}). For your safety you were not sent back to the application, and nothing was shared with it.`,
  );
}

export async function checkAuthorizeRequest(
  api: OAuthHelpers,
  request: Request,
  resolveDocument: DocumentResolver,
): Promise<AuthorizeOutcome> {
  const url = new URL(request.url);
  const query = url.searchParams;
  for (const name of ["client_id", "redirect_uri"]) {
    if (query.getAll(name).length > 1)
      return errorPage("Invalid authorization link", `The parameter ${name} appears more than once (RFC 6749 §3.1).`);
  }
  const clientId = query.get("client_id");
  if (!clientId)
    return errorPage(
      "Invalid authorization link",
      "The link that sent you here has no client_id, so we cannot tell which application is asking.",
    );
  if (!fitsStorageKey(clientId))
    return errorPage(
      "Unknown application",
      `The client_id in this link is longer than ${MAX_IDENTIFIER_BYTES} bytes, so no application has it. Ask the application's developer to check its configuration.`,
    );
  if (isMetadataDocumentClientId(clientId)) {
    const resolved = await resolveDocument(clientId);
    if ("problems" in resolved)
      return errorPage(
        "Application description refused",
        `This application identifies itself by the document at ${clientId}, which cannot be used: ${resolved.problems.join("; ")}. Ask the application's developer to fix it.`,
      );
  }
  const client = await api.lookupClient(clientId);
  if (!client)
    return errorPage(
      "Unknown application",
      `No application is registered with client_id “${clientId.slice(0, 100)}”. Ask the application's developer to check its configuration.`,
    );
  const redirectUri = query.get("redirect_uri");
  if (!redirectUri)
    return errorPage(
      "Invalid authorization link",
      `The link from ${client.clientName ?? "the application"} has no redirect_uri.`,
    );
  if (!isRegisteredRedirectUri(redirectUri, client.redirectUris)) {
    return errorPage(
      "Redirect address not registered",
      `The redirect_uri in this link is not one registered for ${client.clientName ?? "this application"} (it must match exactly). For your safety you were not sent there.`,
    );
  }

  // RFC 9700 §4.11.2: even for this client and URI, an error is shown here, never redirected.
  const repeated = SINGLE_VALUED.find((name) => query.getAll(name).length > 1);
  if (repeated) return invalidRequest("invalid_request", `${repeated} must not be repeated (RFC 6749 §3.1)`);

  let parsed: AuthRequest;
  try {
    parsed = await api.parseAuthRequest(request);
  } catch (error) {
    if (!(error instanceof AuthorizationError)) throw error;
    return invalidRequest(error.code, error.description);
  }

  // The library lets confidential clients skip PKCE; we require S256 from everyone (RFC 9700 §2.1.1).
  if (!parsed.codeChallenge)
    return invalidRequest(
      "invalid_request",
      "code_challenge is required: use PKCE with code_challenge_method=S256 (RFC 7636)",
    );
  if (parsed.codeChallengeMethod !== "S256")
    return invalidRequest("invalid_request", "code_challenge_method must be S256");
  if (!isS256Challenge(parsed.codeChallenge))
    return invalidRequest(
      "invalid_request",
      "code_challenge must be 43 base64url characters: BASE64URL(SHA-256(code_verifier)) (RFC 7636 §4.2)",
    );

  // The library advertises scopes but passes any string through to the consent page.
  if (parsed.scope.length === 0)
    return invalidRequest("invalid_scope", `scope is required: one or more of ${SCOPES.join(" ")}`);
  const unknown = parsed.scope.filter((scope) => !isScope(scope));
  if (unknown.length > 0)
    return invalidRequest("invalid_scope", `unknown scope ${unknown.join(", ")}; supported: ${SCOPES.join(" ")}`);

  return { kind: "valid", request: { ...parsed, scope: [...new Set(parsed.scope)] }, client };
}
