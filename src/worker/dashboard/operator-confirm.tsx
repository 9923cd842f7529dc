/**
 * The operator's confirmation pages (operators only, like the rest of /dashboard/operator): an
 * approval of `admin` is confirmed on a page of its own before anything changes, as revoking a key
 * is, and so is withdrawing an account's approval for admin keys.
 * - GET  /dashboard/operator/admin-requests/approve?account_id=&client_id=   "Approve admin for …?"
 * - GET  /dashboard/operator/accounts/:id/admin-keys                         "Let … create admin keys?"
 * - GET  /dashboard/operator/accounts/:id/admin-keys/withdraw                "Withdraw admin keys from …?"
 * - POST /dashboard/operator/accounts/:id/admin-keys/withdraw                withdraw, then 303 back
 * Names on these pages come from the account's object and the approval record, never from the URL.
 */
import type { Context } from "hono";
import { fitsStorageKey } from "../http/identifier-length";
import type { Child } from "hono/jsx";
import { accountObject } from "../auth/accounts";
import type { AccountView } from "../auth/account-views";
import { ACCOUNT_ID_PATTERN } from "../../common/auth/ids";
import { readAdminRequest } from "../auth/oauth/admin-request-record";
import { ADMIN_SCOPE } from "../../common/auth/scopes";
import { CsrfField } from "../web/csrf";
import { ConfirmPage } from "./confirm-page";
import {
  ADMIN_REQUEST_PATHS,
  adminKeysPath,
  DASHBOARD_PATHS,
  withdrawAdminKeysPath,
  type DashboardEnv,
  signedInSession,
} from "./context";
import { keyTitle } from "./key-table";
import { renderDashboard, renderDashboardError } from "./page";

type OperatorContext = Context<DashboardEnv>;

async function accountOf(c: OperatorContext, accountId: string | undefined): Promise<AccountView | null> {
  if (!accountId || !ACCOUNT_ID_PATTERN.test(accountId)) return null;
  const found = await accountObject(c.env, accountId).account();
  return found.ok ? found.value : null;
}

const accountNotFound = (c: OperatorContext) =>
  renderDashboardError(
    c,
    404,
    "Account not found",
    "There is no account with that id on this deployment. Nothing was changed.",
  );

function confirm(
  c: OperatorContext,
  props: {
    title: string;
    action: string;
    button: string;
    danger?: boolean;
    hidden?: Record<string, string>;
    children: Child;
  },
) {
  const page = (
    <ConfirmPage
      account={c.var.account}
      session={signedInSession(c)}
      current="operator"
      title={props.title}
      cancelHref={DASHBOARD_PATHS.operator}
      form={
        <form method="post" action={props.action}>
          <CsrfField token={signedInSession(c).csrfToken} />
          {Object.entries(props.hidden ?? {}).map(([name, value]) => (
            <input type="hidden" name={name} value={value} />
          ))}
          <button class={props.danger ? "danger" : "primary"} type="submit">
            {props.button}
          </button>
        </form>
      }
    >
      {props.children}
    </ConfirmPage>
  );
  return renderDashboard(c, page);
}

export async function confirmApproveRequest(c: OperatorContext) {
  const accountId = c.req.query("account_id") ?? "";
  const clientId = c.req.query("client_id") ?? "";
  const account = await accountOf(c, accountId);
  const request =
    account && clientId && fitsStorageKey(clientId)
      ? await readAdminRequest(c.env.OAUTH_KV, accountId, clientId)
      : null;
  if (!account || request?.status !== "pending") {
    return renderDashboardError(
      c,
      404,
      "Nothing to approve",
      "There is no admin request waiting for that account and app (it may have been decided already). Nothing was changed.",
    );
  }
  return confirm(c, {
    title: `Approve admin for ${request.client_name} acting for ${account.email}?`,
    action: ADMIN_REQUEST_PATHS.approve,
    button: "Approve admin",
    hidden: { account_id: accountId, client_id: clientId },
    children: (
      <>
        <p>
          The app's next token (a new sign-in or a refresh) carries <code>admin</code>: full access to {account.email}'s
          account on the {c.env.DEPLOYMENT} deployment.
        </p>
        <p>
          You can withdraw it later on the operator page (the app's tokens then stop at once, and the customer must
          authorize it again), but approve only an app you trust with everything.
        </p>
      </>
    ),
  });
}

export async function confirmAdminKeys(c: OperatorContext) {
  const account = await accountOf(c, c.req.param("accountId"));
  if (!account) return accountNotFound(c);
  if (account.admin_approved) return c.redirect(DASHBOARD_PATHS.operator, 303);
  return confirm(c, {
    title: `Let ${account.email} create admin keys?`,
    action: adminKeysPath(account.id),
    button: "Approve admin keys",
    children: (
      <>
        <p>
          The account may then create API keys with the <code>admin</code> scope: full access to the account on the{" "}
          {c.env.DEPLOYMENT} deployment.
        </p>
        <p>You can withdraw the approval later on the operator page; that also revokes the account's admin keys.</p>
      </>
    ),
  });
}

async function activeAdminKeys(c: OperatorContext, accountId: string) {
  const listed = await accountObject(c.env, accountId).listKeys();
  return listed.ok ? listed.value.filter((key) => key.status === "active" && key.scopes.includes(ADMIN_SCOPE)) : [];
}

export async function confirmWithdrawAdminKeys(c: OperatorContext) {
  const account = await accountOf(c, c.req.param("accountId"));
  if (!account) return accountNotFound(c);
  if (!account.admin_approved) return c.redirect(DASHBOARD_PATHS.operator, 303);
  const keys = await activeAdminKeys(c, account.id);
  return confirm(c, {
    title: `Withdraw admin keys from ${account.email}?`,
    action: withdrawAdminKeysPath(account.id),
    button: "Withdraw approval",
    danger: true,
    children: (
      <>
        <p>The account will no longer be able to create API keys with the admin scope.</p>
        {keys.length === 0 ? (
          <p>It has no active key with admin, so no key is revoked.</p>
        ) : (
          <>
            <p>Its active keys with admin are revoked at once; requests with them fail with 401:</p>
            <ul>
              {keys.map((key) => (
                <li>{keyTitle(key)}</li>
              ))}
            </ul>
          </>
        )}
        <p>You can approve the account again later.</p>
      </>
    ),
  });
}

export async function withdrawAdminKeys(c: OperatorContext) {
  const accountId = c.req.param("accountId") ?? "";
  const withdrawn = ACCOUNT_ID_PATTERN.test(accountId) ? await accountObject(c.env, accountId).withdrawAdmin() : null;
  if (!withdrawn?.ok) return accountNotFound(c);
  const query = new URLSearchParams({
    decision: "admin-keys-withdrawn",
    account: accountId,
    revoked: String(withdrawn.value.revoked.length),
  });
  return c.redirect(`${DASHBOARD_PATHS.operator}?${query}`, 303);
}
