/**
 * The "Authorized apps" pages, always for the signed-in account:
 * - GET  /dashboard/apps                    the account's OAuth grants
 * - GET  /dashboard/apps/:grantId/revoke    "Revoke access of …?" (no script needed)
 * - POST /dashboard/apps/:grantId/revoke    revoke (effective at once), then 303 back
 */
import type { Context, Hono } from "hono";
import { CsrfField } from "../web/csrf";
import { appNameOf, authorizedApp, authorizedApps, revokeAuthorizedApp } from "./authorized-apps";
import { AppsPage } from "./apps-page";
import { ConfirmPage } from "./confirm-page";
import { DASHBOARD_PATHS, revokeAppPath, signedInSession, type DashboardEnv } from "./context";
import { ScopeList } from "./display";
import { renderDashboard, renderDashboardError } from "./page";

// The library's grant ids: 16 characters of A–Z a–z 0–9 - _ (anything else is no grant of ours).
const GRANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

async function showApps(c: Context<DashboardEnv>) {
  const apps = await authorizedApps(c.env, c.req.url, c.var.account.id);
  // The confirmation names the app from the client registry, never from the query text itself.
  const revokedClient = c.req.query("revoked_client");
  const revokedAppName = revokedClient ? await appNameOf(c.env, c.req.url, revokedClient) : undefined;
  return renderDashboard(
    c,
    <AppsPage account={c.var.account} session={signedInSession(c)} apps={apps} revokedAppName={revokedAppName} />,
  );
}

const appNotFound = (c: Context<DashboardEnv>) =>
  renderDashboardError(
    c,
    404,
    "App not found",
    "None of the apps authorized on your account has that id (it may already be revoked). Nothing was changed.",
  );

async function confirmRevoke(c: Context<DashboardEnv>) {
  const grantId = c.req.param("grantId") ?? "";
  const app = GRANT_ID.test(grantId) ? await authorizedApp(c.env, c.req.url, c.var.account.id, grantId) : null;
  if (!app) return appNotFound(c);
  const page = (
    <ConfirmPage
      account={c.var.account}
      session={signedInSession(c)}
      current="apps"
      title={`Revoke access of ${app.appName}?`}
      cancelHref={DASHBOARD_PATHS.apps}
      form={
        <form method="post" action={revokeAppPath(app.grantId)}>
          <CsrfField token={signedInSession(c).csrfToken} />
          <button class="danger" type="submit">
            Revoke access
          </button>
        </form>
      }
    >
      <p>{app.appName} can now:</p>
      <ScopeList scopes={app.scopes} />
      <p>
        Once you revoke, its access and refresh tokens stop working immediately. To use it again you would have to allow
        it again.
      </p>
    </ConfirmPage>
  );
  return renderDashboard(c, page);
}

async function revokeApp(c: Context<DashboardEnv>) {
  const grantId = c.req.param("grantId") ?? "";
  const app = GRANT_ID.test(grantId) ? await authorizedApp(c.env, c.req.url, c.var.account.id, grantId) : null;
  if (!app || !(await revokeAuthorizedApp(c.env, c.req.url, c.var.account.id, grantId))) return appNotFound(c);
  return c.redirect(`${DASHBOARD_PATHS.apps}?revoked_client=${encodeURIComponent(app.clientId)}`, 303);
}

export function registerAppPages(dashboard: Hono<DashboardEnv>): void {
  dashboard.get(DASHBOARD_PATHS.apps, showApps);
  dashboard.get(revokeAppPath(":grantId"), confirmRevoke);
  dashboard.post(revokeAppPath(":grantId"), revokeApp);
}
