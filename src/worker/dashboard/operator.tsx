/**
 * The operator pages (accounts with the `operator` role only):
 * - GET  /dashboard/operator                            pending admin requests, accounts
 * - POST /dashboard/operator/admin-requests/approve     approve one (fields account_id, client_id)
 * - POST /dashboard/operator/admin-requests/reject      reject one
 * - POST /dashboard/operator/admin-requests/withdraw    withdraw an approved one (its admin grants end)
 * - POST /dashboard/operator/accounts/:id/admin-keys    let the account create keys with `admin`
 * Each approval, and withdrawing the admin-keys one, is confirmed first (operator-confirm.tsx).
 * After a decision the browser is sent back with 303; the message names the account and app from
 * the directory and the client registry, never from the query text.
 */
import type { Context, Hono } from "hono";
import { accountDirectory, accountObject } from "../auth/accounts";
import type { AccountView } from "../auth/account-views";
import { ACCOUNT_ID_PATTERN } from "../../common/auth/ids";
import { fitsStorageKey } from "../http/identifier-length";
import { requireOperatorRole } from "./access";
import {
  approveAdminRequest,
  adminRequests,
  rejectAdminRequest,
  withdrawAdminApproval,
  type AdminDecision,
} from "../auth/oauth/admin-requests";
import { oauthApi } from "../auth/oauth/provider";
import { appNameOf } from "./authorized-apps";
import {
  ADMIN_REQUEST_PATHS,
  adminKeysPath,
  DASHBOARD_PATHS,
  withdrawAdminKeysPath,
  type DashboardEnv,
  signedInSession,
} from "./context";
import {
  confirmAdminKeys,
  confirmApproveRequest,
  confirmWithdrawAdminKeys,
  withdrawAdminKeys,
} from "./operator-confirm";
import { OperatorPage } from "./operator-page";
import { renderDashboard, renderDashboardError } from "./page";

async function everyAccount(env: Env): Promise<AccountView[]> {
  const entries = await accountDirectory(env).list();
  const accounts = await Promise.all(entries.map((entry) => accountObject(env, entry.id).account()));
  return accounts.flatMap((outcome) => (outcome.ok ? [outcome.value] : []));
}

async function decisionMessage(c: Context<DashboardEnv>, accounts: readonly AccountView[]) {
  const decision = c.req.query("decision");
  const email = accounts.find((account) => account.id === c.req.query("account"))?.email;
  if (!email) return undefined;
  if (decision === "admin-keys")
    return { kind: "success" as const, text: `Approved: ${email} may now create API keys with the admin scope.` };
  if (decision === "admin-keys-withdrawn") {
    const revoked = Number(/^\d{1,4}$/.exec(c.req.query("revoked") ?? "")?.[0] ?? 0);
    return {
      kind: "success" as const,
      text: `Withdrawn: ${email} may no longer create API keys with the admin scope; ${revoked} admin key${revoked === 1 ? " was" : "s were"} revoked.`,
    };
  }
  const app = await appNameOf(c.env, c.req.url, c.req.query("client") ?? "");
  if (!app) return undefined;
  if (decision === "approved")
    return {
      kind: "success" as const,
      text: `Approved: ${app} gets admin for ${email} with its next token (a new sign-in or a refresh).`,
    };
  if (decision === "rejected")
    return {
      kind: "success" as const,
      text: `Rejected: ${app} does not get admin for ${email}. Its other scopes are unchanged.`,
    };
  if (decision === "withdrawn")
    return {
      kind: "success" as const,
      text: `Withdrawn: ${app} no longer has admin for ${email}; its tokens stop at their next request, and ${email} must authorize it again.`,
    };
  return undefined;
}

async function showOperator(c: Context<DashboardEnv>) {
  const [pending, approved, accounts] = await Promise.all([
    adminRequests(c.env.OAUTH_KV),
    adminRequests(c.env.OAUTH_KV, { status: "approved" }),
    everyAccount(c.env),
  ]);
  const emailOf = new Map(accounts.map((account) => [account.id, account.email]));
  const rowsOf = (requests: typeof pending) =>
    requests.map((request) => ({ request, accountEmail: emailOf.get(request.account_id) ?? request.account_id }));
  const page = (
    <OperatorPage
      account={c.var.account}
      session={signedInSession(c)}
      deployment={c.env.DEPLOYMENT}
      pending={rowsOf(pending)}
      approved={rowsOf(approved)}
      accounts={accounts}
      message={await decisionMessage(c, accounts)}
    />
  );
  return renderDashboard(c, page);
}

const REFUSED: Record<Exclude<AdminDecision, { ok: true }>["reason"], string> = {
  not_found:
    "There is no admin request for that account and app (it may have been rejected already). Nothing was changed.",
  already_decided: "That admin request was already approved. Nothing was changed.",
};

const REFUSED_WITHDRAWAL = {
  not_found:
    "No app holds an approved admin for that account (it may have been withdrawn already). Nothing was changed.",
  pending: "That admin request is still waiting, not approved: reject it instead. Nothing was changed.",
} as const;

/** The account and app a decision form names, or null when it names none. */
async function decisionTarget(c: Context<DashboardEnv>) {
  const form = await c.req.formData();
  const accountId = form.get("account_id");
  const clientId = form.get("client_id");
  if (typeof accountId !== "string" || !ACCOUNT_ID_PATTERN.test(accountId)) return null;
  if (typeof clientId !== "string" || !clientId || !fitsStorageKey(clientId)) return null;
  return { accountId, clientId };
}

const notUnderstood = (c: Context<DashboardEnv>) =>
  renderDashboardError(
    c,
    400,
    "Request not understood",
    "The form did not name an account and an app. Go back to the operator page and use its buttons.",
  );

const decided = (c: Context<DashboardEnv>, decision: string, target: { accountId: string; clientId: string }) =>
  c.redirect(
    `${DASHBOARD_PATHS.operator}?${new URLSearchParams({ decision, account: target.accountId, client: target.clientId })}`,
    303,
  );

function decide(decision: "approved" | "rejected") {
  return async (c: Context<DashboardEnv>) => {
    const target = await decisionTarget(c);
    if (!target) return notUnderstood(c);
    const outcome =
      decision === "approved"
        ? await approveAdminRequest(c.env.OAUTH_KV, target, c.var.account.email, new Date())
        : await rejectAdminRequest(c.env.OAUTH_KV, target);
    if (!outcome.ok)
      return renderDashboardError(
        c,
        outcome.reason === "not_found" ? 404 : 409,
        "Nothing to decide",
        REFUSED[outcome.reason],
      );
    return decided(c, decision, target);
  };
}

async function withdraw(c: Context<DashboardEnv>) {
  const target = await decisionTarget(c);
  if (!target) return notUnderstood(c);
  const outcome = await withdrawAdminApproval(c.env, oauthApi(c.env, c.req.url), target);
  if (!outcome.ok)
    return renderDashboardError(
      c,
      outcome.reason === "not_found" ? 404 : 409,
      "Nothing to withdraw",
      REFUSED_WITHDRAWAL[outcome.reason],
    );
  return decided(c, "withdrawn", target);
}

async function approveAdminKeys(c: Context<DashboardEnv>) {
  const accountId = c.req.param("accountId") ?? "";
  const approved = ACCOUNT_ID_PATTERN.test(accountId) ? await accountObject(c.env, accountId).approveAdmin() : null;
  if (!approved?.ok)
    return renderDashboardError(
      c,
      404,
      "Account not found",
      "There is no account with that id on this deployment. Nothing was changed.",
    );
  return c.redirect(
    `${DASHBOARD_PATHS.operator}?${new URLSearchParams({ decision: "admin-keys", account: accountId })}`,
    303,
  );
}

export function registerOperatorPages(dashboard: Hono<DashboardEnv>): void {
  dashboard.get(DASHBOARD_PATHS.operator, requireOperatorRole(), showOperator);
  dashboard.get(ADMIN_REQUEST_PATHS.approve, requireOperatorRole(), confirmApproveRequest);
  dashboard.post(ADMIN_REQUEST_PATHS.approve, requireOperatorRole(), decide("approved"));
  dashboard.post(ADMIN_REQUEST_PATHS.reject, requireOperatorRole(), decide("rejected"));
  dashboard.post(ADMIN_REQUEST_PATHS.withdraw, requireOperatorRole(), withdraw);
  dashboard.get(adminKeysPath(":accountId"), requireOperatorRole(), confirmAdminKeys);
  dashboard.post(adminKeysPath(":accountId"), requireOperatorRole(), approveAdminKeys);
  dashboard.get(withdrawAdminKeysPath(":accountId"), requireOperatorRole(), confirmWithdrawAdminKeys);
  dashboard.post(withdrawAdminKeysPath(":accountId"), requireOperatorRole(), withdrawAdminKeys);
}
