/**
 * The Watches page: the account's watches with each one's last event, the create form (a filter
 * query string, as the explorer's URL carries it, or profiles one per line) and a delete button.
 * At phone width the stylesheet turns each watch into a card labelled by `data-label`.
 */
import type { AccountView } from "../auth/account-views";
import type { WatchEvent } from "../watches/event-schemas";
import { MAX_WATCHES_PER_ACCOUNT, type WatchView } from "../watches/schemas";
import { CsrfField } from "../web/csrf";
import type { WebSession } from "../web/session";
import { DASHBOARD_PATHS, deleteWatchPath } from "./context";
import { When } from "./display";
import { DashboardPage, PageMessage } from "./page";

export type WatchMessage = { kind: "success" | "error"; text: string };
export interface WatchRow {
  watch: WatchView;
  last: WatchEvent | null;
}

const counts = (event: WatchEvent) =>
  `${event.entered_count} entered, ${event.left_count} left, ${event.changed_count} changed`;

function CreateForm(props: { session: WebSession; query: string; full: boolean }) {
  if (props.full) return <p class="hint">You have {MAX_WATCHES_PER_ACCOUNT} watches, the most an account can have.</p>;
  return (
    <form method="post" action={DASHBOARD_PATHS.watches}>
      <CsrfField token={props.session.csrfToken} />
      <label for="watch-name">Name</label>
      <input id="watch-name" name="name" required maxlength={100} />
      <label for="watch-query">Filter query string (as in the explorer's URL), or leave empty</label>
      <input id="watch-query" name="query" value={props.query} placeholder="grade=A,B&stage.pay=ready" />
      <label for="watch-profiles">Or profiles, one per line: an arp_ id or product/funnel</label>
      <textarea id="watch-profiles" name="profiles" rows={3} />
      <button type="submit">Create watch</button>
    </form>
  );
}

export function WatchesPage(props: {
  account: AccountView;
  session: WebSession;
  rows: readonly WatchRow[];
  query: string;
  message?: WatchMessage;
}) {
  return (
    <DashboardPage title="Watches" current="watches" account={props.account} session={props.session}>
      <h1>Watches</h1>
      <p class="lead">
        A watch tells you when the profiles of a filter, or the profiles you list, enter, leave or change at a publish:
        each event is kept here and sent to your webhook endpoints that subscribe to <code>watch.triggered</code>.
      </p>
      <PageMessage message={props.message} />
      {props.rows.length === 0 ? (
        <p class="empty">No watch yet.</p>
      ) : (
        <table class="cards">
          <caption>Your watches</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Watches</th>
              <th scope="col">Last event</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map(({ watch, last }) => (
              <tr>
                <td data-label="Name">{watch.name}</td>
                <td data-label="Watches">
                  {watch.query ? <code>{watch.query}</code> : `${watch.profiles?.length ?? 0} profiles`}
                </td>
                <td data-label="Last event">
                  {last ? (
                    <>
                      <When at={last.at} />: {counts(last)}
                    </>
                  ) : (
                    "none yet"
                  )}
                </td>
                <td data-label="Actions">
                  <form method="post" action={deleteWatchPath(watch.id)}>
                    <CsrfField token={props.session.csrfToken} />
                    <button class="danger" type="submit" aria-label={`Delete watch ${watch.name}`}>
                      Delete
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>New watch</h2>
      <CreateForm session={props.session} query={props.query} full={props.rows.length >= MAX_WATCHES_PER_ACCOUNT} />
    </DashboardPage>
  );
}
