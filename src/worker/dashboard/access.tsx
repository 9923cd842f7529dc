/**
 * Who may see a dashboard page. Runs after `loadSession()` (and, on posts, `csrfProtection()`):
 * - `requireAccount()`: a signed-in session whose account still exists. A signed-out GET gets
 *   the shared sign-in form in place, continuing back to the same page; a signed-out POST changes
 *   nothing and says so.
 * - `requireOperatorRole()`: the account has the `operator` role; anyone else gets 403 and the
 *   page never says what it would have shown.
 */
import type { MiddlewareHandler } from "hono";
import { accountObject } from "../auth/accounts";
import { csrfTokenFor } from "../web/csrf";
import { renderErrorPage } from "../web/error-page";
import { LoginPage } from "../web/login-page";
import { renderPage } from "../web/page";
import { isOperator, type DashboardEnv } from "./context";
import { renderDashboardError } from "./page";

export function requireAccount(): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    const accountId = c.var.session?.accountId;
    const found = accountId ? await accountObject(c.env, accountId).account() : null;
    if (found?.ok) {
      c.set("account", found.value);
      return next();
    }
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      return renderErrorPage(
        c,
        403,
        "Please sign in again",
        "You are not signed in (your session may have ended), so nothing was changed. Sign in and try again.",
      );
    }
    const here = new URL(c.req.url);
    return renderPage(
      c,
      <LoginPage csrfToken={await csrfTokenFor(c)} continueTo={here.pathname + here.search} appName="your dashboard" />,
    );
  };
}

export function requireOperatorRole(): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    if (!isOperator(c.var.account)) {
      return renderDashboardError(
        c,
        403,
        "Operators only",
        "This page is for operators of the service. Your account does not have the operator role, so nothing was shown or changed.",
      );
    }
    return next();
  };
}
