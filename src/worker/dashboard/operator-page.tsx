/**
 * The operator page: `admin` scope requests waiting for a decision (approve / reject) and the
 * accounts of this deployment.
 */
import type { Child } from "hono/jsx";
import type { AccountView } from "../auth/account-views";
import type { AdminRequest } from "../auth/oauth/admin-request-record";
import { CsrfField } from "../web/csrf";
import type { WebSession } from "../web/session";
import {
  ADMIN_REQUEST_PATHS,
  adminKeysPath,
  approveRequestPath,
  DASHBOARD_PATHS,
  withdrawAdminKeysPath,
} from "./context";
import { When } from "./display";
import { DashboardPage, Notice } from "./page";

/** A row of the waiting or the approved requests. */
export interface PendingRequestRow {
  request: AdminRequest;
  accountEmail: string;
}

/** Approve leads to a confirmation page; Reject acts at once (the customer may ask again). */
function Decisions(props: { session: WebSession; request: AdminRequest; who: string }) {
  return (
    <div class="actions compact">
      <a class="button primary" href={approveRequestPath(props.request.account_id, props.request.client_id)}>
        Approve<span class="visually-hidden"> admin for {props.who}</span>
      </a>
      <RequestForm {...props} action={ADMIN_REQUEST_PATHS.reject} label="Reject" hidden={`admin for ${props.who}`} />
    </div>
  );
}

/** A form that acts at once on one request (CSRF-protected): Reject, or Withdraw (its grants holding admin end). */
function RequestForm(props: {
  session: WebSession;
  request: AdminRequest;
  action: string;
  label: string;
  hidden: string;
}) {
  return (
    <form method="post" action={props.action} class="inline">
      <CsrfField token={props.session.csrfToken} />
      <input type="hidden" name="account_id" value={props.request.account_id} />
      <input type="hidden" name="client_id" value={props.request.client_id} />
      <button type="submit" class="danger">
        {props.label}
        <span class="visually-hidden"> {props.hidden}</span>
      </button>
    </form>
  );
}

/** The waiting or the approved requests: account, app, when, and what the operator can do. */
function RequestsTable(props: {
  rows: readonly PendingRequestRow[];
  empty: string;
  caption: string;
  when: { label: string; of: (request: AdminRequest) => string };
  action: { label: string; render: (request: AdminRequest, who: string) => Child };
}) {
  if (props.rows.length === 0) return <p class="empty">{props.empty}</p>;
  return (
    <table class="cards">
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Account</th>
          <th scope="col">App</th>
          <th scope="col">{props.when.label}</th>
          <th scope="col">{props.action.label}</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map(({ request, accountEmail }) => (
          <tr>
            <td data-label="Account">{accountEmail}</td>
            <td data-label="App">
              {request.client_name} <code class="muted">{request.client_id}</code>
            </td>
            <td data-label={props.when.label}>
              <When at={props.when.of(request)} />
            </td>
            <td data-label={props.action.label}>
              {props.action.render(request, `${request.client_name} acting for ${accountEmail}`)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const PendingRequests = (props: { session: WebSession; rows: readonly PendingRequestRow[] }) => (
  <RequestsTable
    rows={props.rows}
    empty="No admin requests are waiting."
    caption="Admin scope requests waiting for a decision"
    when={{ label: "Requested", of: (request) => request.requested_at }}
    action={{
      label: "Decision",
      render: (request, who) => <Decisions session={props.session} request={request} who={who} />,
    }}
  />
);

const ApprovedRequests = (props: { session: WebSession; rows: readonly PendingRequestRow[] }) => (
  <RequestsTable
    rows={props.rows}
    empty="No app holds an approved admin."
    caption="OAuth apps with an approved admin scope"
    when={{ label: "Approved", of: (request) => request.approved_at ?? request.requested_at }}
    action={{
      label: "Withdraw",
      render: (request, who) => (
        <RequestForm
          session={props.session}
          request={request}
          action={ADMIN_REQUEST_PATHS.withdraw}
          label="Withdraw"
          hidden={`admin from ${who}`}
        />
      ),
    }}
  />
);

/** Both links lead to a confirmation page. */
function AdminKeysCell(props: { account: AccountView }) {
  if (props.account.admin_approved) {
    return (
      <span class="approved">
        Approved{" "}
        <a class="button secondary" href={withdrawAdminKeysPath(props.account.id)}>
          Withdraw<span class="visually-hidden"> admin keys from {props.account.email}</span>
        </a>
      </span>
    );
  }
  return (
    <a class="button secondary" href={adminKeysPath(props.account.id)}>
      Approve<span class="visually-hidden"> admin keys for {props.account.email}</span>
    </a>
  );
}

function AccountsTable(props: { accounts: readonly AccountView[] }) {
  return (
    <table class="cards">
      <caption class="visually-hidden">Accounts on this deployment</caption>
      <thead>
        <tr>
          <th scope="col">Email</th>
          <th scope="col">Name</th>
          <th scope="col">Roles</th>
          <th scope="col">Admin keys</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {props.accounts.map((account) => (
          <tr>
            <td data-label="Email">{account.email}</td>
            <td data-label="Name">{account.name}</td>
            <td data-label="Roles">{account.roles.join(", ")}</td>
            <td data-label="Admin keys">
              <AdminKeysCell account={account} />
            </td>
            <td data-label="Created">
              <When at={account.created_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function OperatorPage(props: {
  account: AccountView;
  session: WebSession;
  deployment: string;
  pending: readonly PendingRequestRow[];
  approved: readonly PendingRequestRow[];
  accounts: readonly AccountView[];
  message?: { kind: "success" | "error"; text: string };
}) {
  return (
    <DashboardPage title="Operator" current="operator" account={props.account} session={props.session}>
      <h1>Operator</h1>
      <p class="lead">
        The {props.deployment} deployment. Full access (the admin scope) reaches an app's tokens only after you approve
        it here. <a href={DASHBOARD_PATHS.operatorUsage}>Usage of this deployment</a>: requests, errors and the busiest
        accounts and keys.
      </p>
      {props.message ? (
        <Notice kind={props.message.kind}>
          <p>{props.message.text}</p>
        </Notice>
      ) : null}
      <section aria-labelledby="requests-heading">
        <h2 id="requests-heading">Admin requests</h2>
        <p class="hint">
          Approve (you confirm on the next page) and the app's next token (a new sign-in or a refresh) carries admin.
          Reject and it keeps everything else; the customer may ask again.
        </p>
        <PendingRequests session={props.session} rows={props.pending} />
      </section>
      <section aria-labelledby="approved-heading">
        <h2 id="approved-heading">Approved admin access</h2>
        <p class="hint">
          Withdraw and the app's tokens that can carry admin stop at their next request; the customer must authorize the
          app again, which asks you again.
        </p>
        <ApprovedRequests session={props.session} rows={props.approved} />
      </section>
      <section aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">Accounts</h2>
        <p class="hint">
          “Admin keys”: whether the account may create API keys with the admin scope. Approve and Withdraw each ask you
          to confirm; withdrawing revokes the account's admin keys.
        </p>
        <AccountsTable accounts={props.accounts} />
      </section>
    </DashboardPage>
  );
}
