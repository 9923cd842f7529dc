/**
 * The Webhooks pages, always for the signed-in account, through the same WebhookStore calls as
 * /v1/webhook_endpoints (an endpoint of another account is simply not found):
 *
 * - GET  /dashboard/webhooks               the list and the register form
 * - POST /dashboard/webhooks               register; the response itself shows the secret, once
 * - GET  /dashboard/webhooks/:id           recent deliveries, "Send test event"
 * - POST /dashboard/webhooks/:id/test      send a `webhook.test` event, then 303 to the deliveries
 * - GET  /dashboard/webhooks/:id/delete    "Delete this endpoint?"; POST deletes, 303 to the list
 */
import type { Context, Hono } from "hono";
import { workerEnv } from "../env";
import { EVENT_TYPES, type EventType } from "../webhooks/events";
import { webhookStore } from "../webhooks/store-access";
import { targetUrlProblems } from "../http/outbound/target-url";
import { ENDPOINT_ID_PATTERN } from "../webhooks/views";
import { CsrfField } from "../web/csrf";
import { ConfirmPage } from "./confirm-page";
import { DASHBOARD_PATHS, signedInSession, webhookPath, type DashboardEnv } from "./context";
import { claimForm, newFormId } from "./form-once";
import { renderDashboard, renderDashboardError, type PageStatus } from "./page";
import { DeliveriesPage, type WebhookMessage, WebhooksPage } from "./webhooks-page";

type ListView = { message?: WebhookMessage; url?: string; created?: Parameters<typeof WebhooksPage>[0]["created"] };

async function renderList(c: Context<DashboardEnv>, view: ListView, status: PageStatus = 200) {
  const endpoints = await webhookStore(c.env).listEndpoints(c.var.account.id);
  const page = (
    <WebhooksPage
      account={c.var.account}
      session={signedInSession(c)}
      endpoints={endpoints}
      formId={newFormId()}
      {...view}
    />
  );
  return renderDashboard(c, page, status);
}

const notFound = (c: Context<DashboardEnv>) =>
  renderDashboardError(
    c,
    404,
    "Endpoint not found",
    "Your account has no webhook endpoint with that id. Nothing was changed.",
  );

async function register(c: Context<DashboardEnv>) {
  const form = await c.req.formData();
  const url = String(form.get("url") ?? "").trim();
  const events = form.getAll("events").filter((value): value is EventType => EVENT_TYPES.includes(value as EventType));
  const problems = targetUrlProblems(url, { allowLoopback: workerEnv(c.env).WEBHOOK_LOCAL_TARGETS === "loopback" });
  if (events.length === 0) problems.push("choose at least one event");
  if (problems.length > 0)
    return renderList(
      c,
      { url, message: { kind: "error", text: `Not registered: the URL ${problems.join("; ")}.` } },
      400,
    );
  const claim = await claimForm(c.env.OAUTH_KV, c.var.account.id, form.get("form_id"));
  if (claim !== "first") {
    const text =
      claim === "repeat"
        ? "This form was already sent, so no second endpoint was registered; its secret was shown once."
        : "The form is out of date, so nothing was registered. Try again with this fresh form.";
    return renderList(c, { url, message: { kind: "error", text } }, 409);
  }
  const created = await webhookStore(c.env).createEndpoint(c.var.account.id, { url, events });
  if (!created.ok) return renderList(c, { url, message: { kind: "error", text: created.detail } }, 409);
  return renderList(c, { created: created.value });
}

async function showDeliveries(c: Context<DashboardEnv>) {
  const id = c.req.param("id") ?? "";
  if (!ENDPOINT_ID_PATTERN.test(id)) return notFound(c);
  const store = webhookStore(c.env);
  const [endpoint, deliveries] = await Promise.all([
    store.getEndpoint(c.var.account.id, id),
    store.listDeliveries(c.var.account.id, id, 20),
  ]);
  if (!endpoint.ok || !deliveries.ok) return notFound(c);
  const message: WebhookMessage | undefined =
    c.req.query("sent") !== undefined ? { kind: "success", text: "Test event queued; it is listed below." } : undefined;
  const page = (
    <DeliveriesPage
      account={c.var.account}
      session={signedInSession(c)}
      endpoint={endpoint.value}
      deliveries={deliveries.value.data}
      message={message}
    />
  );
  return renderDashboard(c, page);
}

async function sendTest(c: Context<DashboardEnv>) {
  const id = c.req.param("id") ?? "";
  if (!ENDPOINT_ID_PATTERN.test(id)) return notFound(c);
  const sent = await webhookStore(c.env).sendTestEvent(c.var.account.id, id);
  if (!sent.ok)
    return sent.code === "webhook_endpoint_not_found"
      ? notFound(c)
      : renderDashboardError(c, 409, "Not sent", sent.detail);
  return c.redirect(`${webhookPath(id)}?sent`, 303);
}

async function confirmDelete(c: Context<DashboardEnv>) {
  const id = c.req.param("id") ?? "";
  const endpoint = ENDPOINT_ID_PATTERN.test(id) ? await webhookStore(c.env).getEndpoint(c.var.account.id, id) : null;
  if (!endpoint?.ok) return notFound(c);
  const page = (
    <ConfirmPage
      account={c.var.account}
      session={signedInSession(c)}
      current="webhooks"
      title="Delete this webhook endpoint?"
      cancelHref={DASHBOARD_PATHS.webhooks}
      form={
        <form method="post" action={webhookPath(id, "delete")}>
          <CsrfField token={signedInSession(c).csrfToken} />
          <button class="danger" type="submit">
            Delete endpoint
          </button>
        </form>
      }
    >
      <p>
        Nothing more will be sent to <code>{endpoint.value.url}</code>, pending retries included.
      </p>
    </ConfirmPage>
  );
  return renderDashboard(c, page);
}

async function remove(c: Context<DashboardEnv>) {
  const id = c.req.param("id") ?? "";
  if (!ENDPOINT_ID_PATTERN.test(id)) return notFound(c);
  const deleted = await webhookStore(c.env).deleteEndpoint(c.var.account.id, id);
  if (!deleted.ok) return notFound(c);
  return c.redirect(DASHBOARD_PATHS.webhooks, 303);
}

export function registerWebhookPages(dashboard: Hono<DashboardEnv>): void {
  dashboard.get(DASHBOARD_PATHS.webhooks, (c) => renderList(c, {}));
  dashboard.post(DASHBOARD_PATHS.webhooks, register);
  dashboard.get(webhookPath(":id"), showDeliveries);
  dashboard.post(webhookPath(":id", "test"), sendTest);
  dashboard.get(webhookPath(":id", "delete"), confirmDelete);
  dashboard.post(webhookPath(":id", "delete"), remove);
}
