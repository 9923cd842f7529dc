/**
 * The dashboard at /dashboard, as one sub-app: account owners manage their API keys, profile, the apps
 * they authorized and their webhooks; operators decide `admin` requests. It reuses the web pages' session (the one
 * the OAuth consent page signs in to), CSRF protection and layout (src/worker/web).
 *
 * Every page runs `loadSession()`, `csrfProtection()` (every POST: same Origin and the session's
 * token, else 403 and nothing changes) and `requireAccount()`. The stylesheet and the copy script
 * are registered first, so they are served without a session.
 */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../http/context";
import { csrfProtection } from "../web/csrf";
import { loadSession } from "../web/session";
import { requireAccount } from "./access";
import { registerAppPages } from "./apps";
import { DASHBOARD_PATHS, isOperator, type DashboardEnv } from "./context";
import { registerCopyScript } from "./copy-script";
import { registerKeyPages } from "./keys";
import { registerOperatorPages } from "./operator";
import { registerOperatorUsagePage } from "./operator-usage";
import { registerProfilePages } from "./profile";
import { registerUsagePages } from "./usage";
import { registerWatchPages } from "./watches";
import { registerWebhookPages } from "./webhooks";
import { renderDashboardError, renderUnexpectedError } from "./page";
import { registerDashboardStyles } from "./styles";

export function registerDashboardRoutes(app: Hono<AppEnv>): void {
  const dashboard = new Hono<DashboardEnv>();
  // An unexpected failure is a page in words with the request id, never a problem+json body.
  dashboard.onError(renderUnexpectedError);
  registerDashboardStyles(dashboard);
  registerCopyScript(dashboard);

  const pages = new Hono<DashboardEnv>();
  // Scoped to /dashboard: a path-less use() would run on every route of the worker once mounted.
  for (const path of [DASHBOARD_PATHS.home, `${DASHBOARD_PATHS.home}/*`])
    pages.use(path, loadSession(), csrfProtection(), requireAccount());
  // Where a sign-in lands: an operator's work is on the operator page, a customer's on the keys page.
  const landing = (c: Context<DashboardEnv>) =>
    c.redirect(isOperator(c.var.account) ? DASHBOARD_PATHS.operator : DASHBOARD_PATHS.keys, 303);
  pages.get(DASHBOARD_PATHS.home, landing);
  pages.get(`${DASHBOARD_PATHS.home}/`, landing);
  registerKeyPages(pages);
  registerProfilePages(pages);
  registerAppPages(pages);
  registerWebhookPages(pages);
  registerUsagePages(pages);
  registerWatchPages(pages);
  registerOperatorPages(pages);
  registerOperatorUsagePage(pages);
  pages.all(`${DASHBOARD_PATHS.home}/*`, (c) =>
    renderDashboardError(c, 404, "Page not found", `The dashboard has no page at ${c.req.path}. Use the links above.`),
  );

  dashboard.route("/", pages);
  app.route("/", dashboard as unknown as Hono<AppEnv>);
}
