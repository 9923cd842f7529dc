/**
 * One webhook endpoint: GET, DELETE (its pending deliveries stop), POST …/rotate_secret (a new
 * secret, shown once; the old one signs too for 24 h) and GET …/deliveries (newest first).
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { outcomeValue } from "../auth/accounts";
import type { AppEnv } from "../http/context";
import { problemResponses } from "../http/openapi-responses";
import { NO_QUERY } from "../http/strict-query";
import { webhookGuard, webhookSecurity } from "./endpoints";
import { listPage } from "../http/list-page";
import { nextPageUrl, openKeyset } from "./list-paging";
import { DeliveryList, DeliveryListQuery, ENDPOINT_LIST_URL, EndpointIdParam } from "./schemas";
import { webhookStore } from "./store-access";
import { RotatedSecret, WebhookEndpointView } from "./views";

const TAGS = ["Webhooks"];
const params = z.object({ id: EndpointIdParam });
const common = { tags: TAGS, middleware: webhookGuard(), security: webhookSecurity() };
const notFound = () => problemResponses("bad_request", "webhook_endpoint_not_found", "precondition_failed");

const get = createRoute({
  ...common,
  method: "get",
  path: "/v1/webhook_endpoints/{id}",
  operationId: "getWebhookEndpoint",
  summary: "A webhook endpoint",
  request: { query: NO_QUERY, params },
  responses: {
    200: { description: "The endpoint (no secret).", content: { "application/json": { schema: WebhookEndpointView } } },
    ...notFound(),
  },
});

const remove = createRoute({
  ...common,
  method: "delete",
  path: "/v1/webhook_endpoints/{id}",
  operationId: "deleteWebhookEndpoint",
  summary: "Delete a webhook endpoint",
  description: "Nothing more is sent to it, pending retries included; its delivery history goes with it.",
  request: { query: NO_QUERY, params },
  responses: {
    200: {
      description: "The endpoint, now deleted.",
      content: { "application/json": { schema: WebhookEndpointView } },
    },
    ...notFound(),
  },
});

const rotate = createRoute({
  ...common,
  method: "post",
  path: "/v1/webhook_endpoints/{id}/rotate_secret",
  operationId: "rotateWebhookSecret",
  summary: "Rotate an endpoint's signing secret",
  description:
    "Returns the new secret once. For 24 h every delivery carries two signatures (new and old), so a receiver can switch at its pace.",
  request: { query: NO_QUERY, params },
  responses: {
    200: {
      description: "The endpoint with its new secret.",
      content: { "application/json": { schema: RotatedSecret } },
    },
    ...notFound(),
  },
});

const deliveries = createRoute({
  ...common,
  method: "get",
  path: "/v1/webhook_endpoints/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "An endpoint's recent deliveries",
  description:
    "Newest first: each delivery's `webhook-id`, event, status, attempts (time, response status, a short excerpt) and next attempt. The last 100 are kept; `next` pages through them.",
  request: { query: DeliveryListQuery, params },
  responses: {
    200: { description: "The deliveries.", content: { "application/json": { schema: DeliveryList } } },
    ...notFound(),
  },
});

export function registerEndpointRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(get, async (c) => {
    const endpoint = outcomeValue(
      await webhookStore(c.env).getEndpoint(c.get("principal").accountId, c.req.valid("param").id),
    );
    c.header("Cache-Control", "private, no-store");
    return c.json(endpoint, 200);
  });

  app.openapi(remove, async (c) => {
    const endpoint = outcomeValue(
      await webhookStore(c.env).deleteEndpoint(c.get("principal").accountId, c.req.valid("param").id),
    );
    return c.json(endpoint, 200);
  });

  app.openapi(rotate, async (c) => {
    const rotated = outcomeValue(
      await webhookStore(c.env).rotateSecret(c.get("principal").accountId, c.req.valid("param").id),
    );
    c.header("Cache-Control", "no-store");
    return c.json({ ...rotated.endpoint, secret: rotated.secret }, 200);
  });

  app.openapi(deliveries, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const { accountId } = c.get("principal");
    const { id } = c.req.valid("param");
    // A cursor pages one endpoint of one account: another's is refused, never read.
    const owner = `${accountId} ${id}`;
    const before = cursor === undefined ? undefined : await openKeyset(c.env, "webhook-deliveries", owner, cursor);
    const page = outcomeValue(await webhookStore(c.env).listDeliveries(accountId, id, limit, before));
    const path = `${ENDPOINT_LIST_URL}/${id}/deliveries`;
    const next = await nextPageUrl(c.env, "webhook-deliveries", owner, {
      path,
      limit,
      last: page.data.at(-1),
      more: page.has_more,
    });
    c.header("Cache-Control", "private, no-store");
    return c.json(listPage(page.data, next), 200);
  });
}
