/**
 * The dashboard's Hono environment and addresses. It is the web pages' environment (src/worker/web:
 * session, CSRF) plus the signed-in account, loaded once per request by `requireAccount()`.
 */
import type { Context } from "hono";
import type { AccountView } from "../auth/account-views";
import type { WebEnv, WebSession } from "../web/session";

export interface DashboardEnv {
  Bindings: Env;
  Variables: WebEnv["Variables"] & { account: AccountView };
}

export const DASHBOARD_PATHS = {
  home: "/dashboard",
  keys: "/dashboard/keys",
  profile: "/dashboard/profile",
  apps: "/dashboard/apps",
  webhooks: "/dashboard/webhooks",
  usage: "/dashboard/usage",
  watches: "/dashboard/watches",
  operator: "/dashboard/operator",
  operatorUsage: "/dashboard/operator/usage",
  styles: "/dashboard/styles.css",
  copyScript: "/dashboard/copy.js",
} as const;

/** The catalog explorer (src/worker/explore): a page of its own, in the dashboard's navigation. */
export const EXPLORE_HOME_PATH = "/explore";

export const revokeKeyPath = (keyId: string) => `${DASHBOARD_PATHS.keys}/${keyId}/revoke`;
/** An endpoint's deliveries (GET); `/test` sends a test event (POST); `/delete` asks (GET) and deletes (POST). */
export const webhookPath = (endpointId: string, action?: "test" | "delete") =>
  `${DASHBOARD_PATHS.webhooks}/${endpointId}${action ? `/${action}` : ""}`;
/** The Usage page (or, `csv`, its series) of the account or one key, per hour or day. */
export const usagePath = (query: { key?: string; granularity: "hour" | "day" }, format?: "csv") =>
  `${DASHBOARD_PATHS.usage}${format ? ".csv" : ""}?${new URLSearchParams({ ...(query.key ? { key: query.key } : {}), granularity: query.granularity })}`;
/** Deletes a watch (POST). */
export const deleteWatchPath = (watchId: string) => `${DASHBOARD_PATHS.watches}/${watchId}/delete`;
export const revokeAppPath = (grantId: string) => `${DASHBOARD_PATHS.apps}/${grantId}/revoke`;
export const ADMIN_REQUEST_PATHS = {
  approve: `${DASHBOARD_PATHS.operator}/admin-requests/approve`,
  reject: `${DASHBOARD_PATHS.operator}/admin-requests/reject`,
  withdraw: `${DASHBOARD_PATHS.operator}/admin-requests/withdraw`,
} as const;
/** Lets an account create API keys with the `admin` scope (the account-wide approval): GET asks, POST approves. */
export const adminKeysPath = (accountId: string) => `${DASHBOARD_PATHS.operator}/accounts/${accountId}/admin-keys`;
/** Withdraws that approval: GET asks, POST withdraws. */
export const withdrawAdminKeysPath = (accountId: string) => `${adminKeysPath(accountId)}/withdraw`;
/** The confirmation page of an OAuth admin request's approval (GET; the form posts to ADMIN_REQUEST_PATHS.approve). */
export const approveRequestPath = (accountId: string, clientId: string) =>
  `${ADMIN_REQUEST_PATHS.approve}?${new URLSearchParams({ account_id: accountId, client_id: clientId })}`;

export const isOperator = (account: AccountView) => account.roles.includes("operator");

/** The session of a page behind `requireAccount()`, which lets no request through without one. */
export function signedInSession(c: Context<DashboardEnv>): WebSession {
  const { session } = c.var;
  if (!session) throw new Error("a dashboard page ran without requireAccount()");
  return session;
}
