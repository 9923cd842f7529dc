/**
 * GET and POST /oauth/authorize: the page where a customer signs in and allows or denies an
 * application (RFC 6749 §4.1.1–4.1.2). GET validates the request (authorize-request.ts; a bad one
 * gets our error page, never a redirect), then shows the sign-in form or the consent form. POST
 * carries the decision, the only answer that goes back to the client without a code (Deny); approval creates the grant and one-time code through the library and
 * redirects with the sealed `code` (token-format.ts), `state` and `iss` (RFC 9207). Redirects
 * after a POST are 303 (RFC 9700 §4.12).
 */
import type { Context, Hono } from "hono";
import { recordAdminRequest } from "../auth/oauth/admin-request-record";
import { checkAuthorizeRequest } from "../auth/oauth/authorize-request";
import { isMetadataDocumentClientId } from "../auth/oauth/client-metadata/document-url";
import { localTargets, resolveDocumentClient } from "../auth/oauth/client-metadata/resolve";
import { AuthorizationError, OAUTH_ENDPOINTS, oauthApi, type GrantProps } from "../auth/oauth/provider";
import { withSealedCode } from "../auth/oauth/token-format";
import { tokenKeyProblem } from "../auth/oauth/token-key";
import { ADMIN_SCOPE } from "../../common/auth/scopes";
import { ConsentPage } from "./consent-page";
import { csrfProtection, csrfTokenFor } from "./csrf";
import { renderErrorPage } from "./error-page";
import { LoginPage } from "./login-page";
import { renderPage } from "./page";
import { loadSession, type WebEnv } from "./session";

function withHeaders(response: Response, extra: Headers): Response {
  const merged = new Response(response.body, response);
  extra.forEach((value, name) => {
    if (name.toLowerCase() === "set-cookie") merged.headers.append(name, value);
    else merged.headers.set(name, value);
  });
  return merged;
}

/** Without the token key no code can be issued: say so before the customer signs in or decides. */
function unavailable(c: Context<WebEnv>): Response | Promise<Response> | null {
  const problem = tokenKeyProblem(c.env);
  return problem ? renderErrorPage(c, 503, "Signing in to apps is unavailable", problem) : null;
}

async function showAuthorize(c: Context<WebEnv>) {
  const refusal = unavailable(c);
  if (refusal) return refusal;
  const api = oauthApi(c.env, c.var.publicOrigin);
  const outcome = await checkAuthorizeRequest(api, c.req.raw, (clientId) =>
    resolveDocumentClient(c.env, clientId, localTargets(c.env)),
  );
  if (outcome.kind === "error-page") return renderErrorPage(c, 400, outcome.title, outcome.detail);
  const here = new URL(c.req.url);
  const continueTo = here.pathname + here.search;
  const session = c.var.session;
  const clientId = outcome.request.clientId;
  const verifiedHost = isMetadataDocumentClientId(clientId) ? new URL(clientId).host : undefined;
  const facts = { ...(await api.describeConsent(outcome.request)), verifiedHost };
  if (!session) {
    const appName = verifiedHost ? `the app at ${verifiedHost}` : facts.clientName;
    return renderPage(c, <LoginPage csrfToken={await csrfTokenFor(c)} continueTo={continueTo} appName={appName} />);
  }
  const consent = await api.beginConsent(outcome.request);
  const page = await renderPage(
    c,
    <ConsentPage
      session={session}
      facts={{ ...facts, scopes: outcome.request.scope }}
      handle={consent.handle}
      action={OAUTH_ENDPOINTS.authorize}
      continueTo={continueTo}
    />,
    { formActionOrigins: [new URL(outcome.request.redirectUri).origin] },
  );
  consent.headers.delete("Content-Security-Policy"); // ours is stricter and includes frame-ancestors 'none'
  return withHeaders(page, consent.headers);
}

async function submitDecision(c: Context<WebEnv>) {
  const session = c.var.session;
  if (!session?.accountId) {
    return renderErrorPage(
      c,
      403,
      "Please sign in again",
      "Your session ended before you answered. Go back to the application and start again.",
    );
  }
  const refusal = unavailable(c);
  if (refusal) return refusal;
  const form = await c.req.parseBody();
  const handle = typeof form.handle === "string" ? form.handle : "";
  const api = oauthApi(c.env, c.var.publicOrigin);
  try {
    if (form.decision !== "approve") {
      const denied = await api.denyConsent(c.req.raw, handle, { description: "The customer denied the request" });
      return withHeaders(new Response(null, { status: 303 }), denied.headers);
    }
    const approved = await api.approveConsent(c.req.raw, handle);
    const request = approved.request;
    if (request.scope.includes(ADMIN_SCOPE)) {
      const client = await api.lookupClient(request.clientId);
      await recordAdminRequest(c.env.OAUTH_KV, {
        accountId: session.accountId,
        clientId: request.clientId,
        clientName: client?.clientName ?? request.clientId,
        now: new Date(),
      });
    }
    const props: GrantProps = { accountId: session.accountId, authorizedAt: Math.floor(Date.now() / 1000) };
    const { redirectTo } = await api.completeAuthorization({
      request,
      userId: session.accountId,
      metadata: {},
      scope: request.scope,
      props,
    });
    approved.headers.set("Location", await withSealedCode(c.env, redirectTo));
    return withHeaders(new Response(null, { status: 303 }), approved.headers);
  } catch (error) {
    if (!(error instanceof AuthorizationError)) throw error;
    return renderErrorPage(
      c,
      400,
      "This request has expired",
      `${error.description}. Go back to the application and start signing in again.`,
    );
  }
}

export function registerAuthorizeRoutes(app: Hono<WebEnv>): void {
  app.get(OAUTH_ENDPOINTS.authorize, loadSession(), showAuthorize);
  app.post(OAUTH_ENDPOINTS.authorize, loadSession(), csrfProtection(), submitDecision);
}
