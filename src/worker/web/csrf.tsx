/**
 * CSRF protection for every state-changing form post of the browser pages (OWASP CSRF
 * Prevention Cheat Sheet: token + origin verification), reusable by the dashboard:
 * 1. `Origin` must be present and equal this origin (RFC 6454 §7; browsers send it on every POST).
 *    A missing or foreign Origin is 403.
 * 2. The form's `csrf_token` must equal, in constant time, the signed-in session's token
 *    (synchronizer token) or, for a browser without a session, the token of its CSRF cookie
 *    (double-submit, signed-out-csrf.ts). A missing cookie or token is 403.
 * Use after `loadSession()`; forms render `<CsrfField token={await csrfTokenFor(c)} />`.
 */
import type { Context, MiddlewareHandler } from "hono";
import { constantTimeEqual } from "../auth/password";
import { renderErrorPage } from "./error-page";
import type { WebEnv } from "./session";
import { expectedSignedOutToken, signedOutCsrfToken } from "./signed-out-csrf";

export const CSRF_FIELD = "csrf_token";

export function CsrfField(props: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.token} />;
}

/** The token this page's forms carry: the session's, or the CSRF cookie's for a browser without one. */
export async function csrfTokenFor<E extends WebEnv>(c: Context<E>): Promise<string> {
  return c.var.session?.csrfToken ?? signedOutCsrfToken(c);
}

/** Why this POST must be refused, or null when it came from our own page in this browser. `expected`: null without a session or CSRF cookie. */
export function csrfRefusal(
  request: { url: string; origin: string | undefined },
  expected: string | null,
  token: unknown,
): string | null {
  if (!request.origin) return "The request carried no Origin header, so we cannot tell that it came from our own page.";
  if (request.origin !== new URL(request.url).origin) return "The form was posted from another site.";
  if (expected === null)
    return "Your browser sent the form without our cookie, so we cannot tell that it came from our own page. Allow cookies for this site, reload the page and try again.";
  if (typeof token !== "string" || !constantTimeEqual(token, expected)) {
    return "The form's security token is missing or out of date. Go back, reload the page and try again.";
  }
  return null;
}

export function csrfProtection<E extends WebEnv = WebEnv>(): MiddlewareHandler<E> {
  return async (c, next) => {
    if (c.req.method !== "POST") return next();
    const origin = c.req.header("Origin");
    // Read the body only of a post from our own origin; one that does not parse (e.g. multipart
    // without its boundary) is the client's error, not a 500.
    const form = origin === new URL(c.req.url).origin ? await c.req.parseBody().catch(() => null) : {};
    if (form === null)
      return renderErrorPage(
        c,
        400,
        "Request refused",
        "The form could not be read. Go back, reload the page and submit it again.",
      );
    const token = form[CSRF_FIELD];
    const expected = c.var.session?.csrfToken ?? (await expectedSignedOutToken(c));
    const refusal = csrfRefusal({ url: c.req.url, origin }, expected, token);
    if (refusal) return renderErrorPage(c, 403, "Request refused", refusal);
    await next();
  };
}
