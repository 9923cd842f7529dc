/**
 * The "Authorized apps" page: the applications the customer allowed to act for them through
 * OAuth, what each may do, since when, and a Revoke link (to a confirmation page).
 */
import type { AccountView } from "../auth/account-views";
import { ADMIN_SCOPE } from "../../common/auth/scopes";
import type { WebSession } from "../web/session";
import type { AuthorizedApp } from "./authorized-apps";
import { revokeAppPath } from "./context";
import { ScopeList, When } from "./display";
import { DashboardPage, Notice } from "./page";

/** Admin that still waits for an operator is not something the app may do yet: listed apart, as pending. */
function PendingAdmin() {
  return (
    <>
      <p>
        <span class="badge status-pending">Pending</span> Waiting for an operator's approval:
      </p>
      <ScopeList scopes={[ADMIN_SCOPE]} />
      <p class="hint">
        Until an operator approves it, the app's tokens leave admin out; it gets everything listed above.
      </p>
    </>
  );
}

function AppCard(props: { app: AuthorizedApp }) {
  const { app } = props;
  const pending = app.adminRequest === "pending";
  return (
    <li class="app-card">
      <h3>{app.appName}</h3>
      <p class="muted">
        Authorized <When at={app.grantedAt} />
      </p>
      <p>It may:</p>
      <ScopeList scopes={pending ? app.scopes.filter((scope) => scope !== ADMIN_SCOPE) : app.scopes} />
      {pending ? <PendingAdmin /> : null}
      {app.adminRequest === "approved" ? <p class="hint">Full access (admin) was approved by an operator.</p> : null}
      <a class="button danger" href={revokeAppPath(app.grantId)}>
        Revoke access<span class="visually-hidden"> of {app.appName}</span>
      </a>
    </li>
  );
}

export function AppsPage(props: {
  account: AccountView;
  session: WebSession;
  apps: readonly AuthorizedApp[];
  revokedAppName?: string;
}) {
  return (
    <DashboardPage title="Authorized apps" current="apps" account={props.account} session={props.session}>
      <h1>Authorized apps</h1>
      <p class="lead">
        Applications you allowed to use your account through OAuth. Revoking one ends its access at once; it would have
        to ask you again.
      </p>
      {props.revokedAppName ? (
        <Notice kind="success">
          <p>{props.revokedAppName} no longer has access to your account. Its tokens now fail with 401.</p>
        </Notice>
      ) : null}
      {props.apps.length === 0 ? (
        <p class="empty">No application has access to your account.</p>
      ) : (
        <ul class="app-list">
          {props.apps.map((app) => (
            <AppCard app={app} />
          ))}
        </ul>
      )}
    </DashboardPage>
  );
}
