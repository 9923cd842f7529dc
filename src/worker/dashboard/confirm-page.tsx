/**
 * "Are you sure?" as a page of its own, so a destructive action is confirmed without any script:
 * a link leads here, the button here posts (with the CSRF token), Cancel goes back.
 */
import type { Child } from "hono/jsx";
import type { AccountView } from "../auth/account-views";
import type { WebSession } from "../web/session";
import { DashboardPage, type Section } from "./page";

export function ConfirmPage(props: {
  account: AccountView;
  session: WebSession;
  current: Section;
  title: string;
  /** The posting form, with its button. */
  form: Child;
  cancelHref: string;
  children: Child;
}) {
  return (
    <DashboardPage title={props.title} current={props.current} account={props.account} session={props.session}>
      <div class="confirm">
        <h1>{props.title}</h1>
        {props.children}
        <div class="actions">
          {props.form}
          <a class="button secondary" href={props.cancelHref}>
            Cancel
          </a>
        </div>
      </div>
    </DashboardPage>
  );
}
