/**
 * The Webhooks pages: the account's endpoints with the register form (the new secret shown once,
 * in the post's own response), and one endpoint's recent deliveries with "Send test event".
 */
import type { AccountView } from "../auth/account-views";
import { EVENT_TYPES } from "../webhooks/events";
import { MAX_ENDPOINTS_PER_ACCOUNT } from "../webhooks/webhook-store";
import type { DeliveryView, WebhookEndpointView } from "../webhooks/views";
import { CsrfField } from "../web/csrf";
import type { WebSession } from "../web/session";
import { DASHBOARD_PATHS, webhookPath } from "./context";
import { When } from "./display";
import { FORM_ID_FIELD } from "./form-once";
import { SecretField } from "./new-key-panel";
import { DashboardPage, PageMessage } from "./page";

export type WebhookMessage = { kind: "success" | "error"; text: string };

interface Common {
  account: AccountView;
  session: WebSession;
  message?: WebhookMessage;
}

const Status = (props: { status: string }) => <span class={`badge status-${props.status}`}>{props.status}</span>;

function NewSecretPanel(props: { endpoint: WebhookEndpointView; secret: string }) {
  return (
    <section class="new-key" aria-labelledby="new-secret-heading">
      <h2 id="new-secret-heading">Endpoint registered: its signing secret</h2>
      <p class="warning">
        <strong>Copy it now: this is the only time it is shown.</strong> Your receiver checks each delivery's{" "}
        <code>webhook-signature</code> with it (Standard Webhooks).
      </p>
      <SecretField id="new-webhook-secret" label={`Signing secret of ${props.endpoint.url}`} value={props.secret} />
    </section>
  );
}

function RegisterForm(props: { session: WebSession; formId: string; url: string; full: boolean }) {
  if (props.full)
    return (
      <p class="hint">
        You have {MAX_ENDPOINTS_PER_ACCOUNT} endpoints, the most an account can have. Delete one to add another.
      </p>
    );
  return (
    <form method="post" action={DASHBOARD_PATHS.webhooks}>
      <CsrfField token={props.session.csrfToken} />
      <input type="hidden" name={FORM_ID_FIELD} value={props.formId} />
      <label for="webhook-url">Endpoint URL (https)</label>
      <input
        id="webhook-url"
        name="url"
        type="url"
        required
        value={props.url}
        placeholder="https://example.com/hooks/catalog"
      />
      <fieldset>
        <legend>Events</legend>
        {EVENT_TYPES.map((type) => (
          <label>
            <input type="checkbox" name="events" value={type} checked /> <code>{type}</code>
          </label>
        ))}
      </fieldset>
      <button type="submit">Register endpoint</button>
    </form>
  );
}

export function WebhooksPage(
  props: Common & {
    endpoints: readonly WebhookEndpointView[];
    formId: string;
    url?: string;
    created?: { endpoint: WebhookEndpointView; secret: string };
  },
) {
  return (
    <DashboardPage title="Webhooks" current="webhooks" account={props.account} session={props.session}>
      <h1>Webhooks</h1>
      <p class="lead">
        We POST a signed event to your endpoints when a catalog release is published or rolled back. A delivery that
        fails is retried for about 27 hours; if every attempt fails, the endpoint is disabled.
      </p>
      <PageMessage message={props.message} />
      {props.created ? <NewSecretPanel endpoint={props.created.endpoint} secret={props.created.secret} /> : null}
      {props.endpoints.length === 0 ? (
        <p class="empty">No webhook endpoint yet.</p>
      ) : (
        <table>
          <caption>Your endpoints</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {props.endpoints.map((endpoint) => (
              <tr>
                <td>
                  <code>{endpoint.url}</code>
                </td>
                <td>{endpoint.events.join(", ")}</td>
                <td>
                  <Status status={endpoint.status} />
                </td>
                <td>
                  <a href={webhookPath(endpoint.id)}>Deliveries</a>{" "}
                  <a class="button danger" href={webhookPath(endpoint.id, "delete")}>
                    Delete<span class="visually-hidden"> {endpoint.url}</span>
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Register an endpoint</h2>
      <RegisterForm
        session={props.session}
        formId={props.formId}
        url={props.url ?? ""}
        full={props.endpoints.length >= MAX_ENDPOINTS_PER_ACCOUNT}
      />
    </DashboardPage>
  );
}

export function DeliveriesPage(props: Common & { endpoint: WebhookEndpointView; deliveries: readonly DeliveryView[] }) {
  const { endpoint } = props;
  return (
    <DashboardPage
      title={`Deliveries to ${endpoint.url}`}
      current="webhooks"
      account={props.account}
      session={props.session}
    >
      <h1>Deliveries</h1>
      <p>
        <code>{endpoint.url}</code> <Status status={endpoint.status} />
        {endpoint.disabled_at ? (
          <>
            {" "}
            since <When at={endpoint.disabled_at} />: a delivery failed every attempt. Delete the endpoint and register
            it again once it answers.
          </>
        ) : null}
      </p>
      <PageMessage message={props.message} />
      {endpoint.status === "enabled" ? (
        <form method="post" action={webhookPath(endpoint.id, "test")}>
          <CsrfField token={props.session.csrfToken} />
          <button type="submit" class="secondary">
            Send test event
          </button>
        </form>
      ) : null}
      {props.deliveries.length === 0 ? (
        <p class="empty">Nothing delivered yet.</p>
      ) : (
        <table>
          <caption>Recent deliveries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">webhook-id</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Next attempt</th>
            </tr>
          </thead>
          <tbody>
            {props.deliveries.map((delivery) => (
              <tr>
                <td>
                  <code>{delivery.id}</code>
                </td>
                <td>{delivery.event}</td>
                <td>
                  <Status status={delivery.status} />
                </td>
                <td>
                  {delivery.attempts.map((attempt) => (
                    <div>
                      <When at={attempt.attempted_at} />: {attempt.response_status ?? attempt.error}
                    </div>
                  ))}
                </td>
                <td>
                  <When at={delivery.next_attempt_at} fallback="—" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <a href={DASHBOARD_PATHS.webhooks}>Back to your webhooks</a>
      </p>
    </DashboardPage>
  );
}
