/**
 * CSRF protection for every state-changing form post of the browser pages (OWASP CSRF
 * Prevention Cheat Sheet: synchronizer token + origin verification), reusable by the dashboard:
 * 1. `Origin` must be present and equal this origin (RFC 6454 §7; browsers send it on every POST).
 *    A missing or foreign Origin is 403.
 * 2. The form's `csrf_token` must equal the session's token, compared in constant time.
 * Use after `loadSession()`; forms render `<CsrfField />`.
 */
import type { MiddlewareHandler } from "hono";
import { renderErrorPage } from "./error-page";
import type { WebEnv, WebSession } from "./session";

export const CSRF_FIELD = "csrf_token";

export function CsrfField(props: { session: WebSession }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.session.csrfToken} />;
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  if (left.byteLength !== right.byteLength) return false;
  return crypto.subtle.timingSafeEqual(left, right);
}

/** Why this POST must be refused, or null when it came from our own page in this session. */
export function csrfRefusal(request: { url: string; origin: string | undefined }, session: WebSession | null, token: unknown): string | null {
  if (!request.origin) return "The request carried no Origin header, so we cannot tell that it came from our own page.";
  if (request.origin !== new URL(request.url).origin) return "The form was posted from another site.";
  if (!session) return "Your session expired. Go back, reload the page and try again.";
  if (typeof token !== "string" || !constantTimeEqual(token, session.csrfToken)) {
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
    if (form === null) return renderErrorPage(c, 400, "Request refused", "The form could not be read. Go back, reload the page and submit it again.");
    const token = form[CSRF_FIELD];
    const refusal = csrfRefusal({ url: c.req.url, origin }, c.var.session, token);
    if (refusal) return renderErrorPage(c, 403, "Request refused", refusal);
    await next();
  };
}
