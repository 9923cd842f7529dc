/** Request shapes of the webhook endpoint API (/v1/webhook_endpoints), documented in /openapi.json. */
import { z } from "@hono/zod-openapi";
import { listSchema } from "../http/list-page";
import { DEFAULT_EVENT_TYPES, EventTypeSchema } from "./events";
import { MAX_URL_LENGTH, targetUrlProblems } from "../http/outbound/target-url";
import { webhookListQuery } from "./list-paging";
import { DeliveryView, ENDPOINT_ID_PATTERN, WebhookEndpointView } from "./views";
import { MAX_ENDPOINTS_PER_ACCOUNT } from "./webhook-store";

export const ENDPOINT_LIST_URL = "/v1/webhook_endpoints";
export const MAX_DELIVERY_PAGE = 50;
export const DEFAULT_DELIVERY_PAGE = 20;

/**
 * The URL's shape is checked here, so that every problem of the body is listed at once; what only
 * production refuses (http://127.0.0.1) is checked by the route, which knows the deployment.
 */
export const CreateEndpointBody = z
  .strictObject({
    url: z
      .string()
      .max(MAX_URL_LENGTH)
      .superRefine((url, ctx) => {
        for (const message of targetUrlProblems(url, { allowLoopback: true }))
          ctx.addIssue({ code: "custom", message });
      })
      .openapi({
        example: "https://example.com/hooks/catalog",
        description:
          "https, on a public host (no IP literal in a private, loopback or link-local range, no single-label or .local name). A local deployment (npm start) also takes http://127.0.0.1:<port>.",
      }),
    events: z
      .array(EventTypeSchema)
      .min(1)
      .optional()
      .openapi({
        description: `Default: the release events (${DEFAULT_EVENT_TYPES.join(", ")}); add \`watch.triggered\` for the account's watches.`,
      }),
  })
  .openapi("CreateWebhookEndpointRequest");

export const EndpointIdParam = z
  .string()
  .regex(ENDPOINT_ID_PATTERN, "a webhook endpoint id looks like we_ followed by 20 base62 characters")
  .openapi({ param: { name: "id", in: "path" }, example: "we_4Qb8mZ2cYw7LrT1sVx9k" });

/** Oldest first, at most MAX_ENDPOINTS_PER_ACCOUNT; `url` beside the list's fields, as before. */
export const EndpointList = listSchema("WebhookEndpointList", WebhookEndpointView, {
  url: z.literal(ENDPOINT_LIST_URL),
});

export const EndpointListQuery = webhookListQuery("Endpoints", MAX_ENDPOINTS_PER_ACCOUNT, MAX_ENDPOINTS_PER_ACCOUNT);

/** Newest first, of the last DELIVERIES_KEPT (webhook-tables.ts). */
export const DeliveryList = listSchema("WebhookDeliveryList", DeliveryView);

export const DeliveryListQuery = webhookListQuery("Deliveries (the newest)", MAX_DELIVERY_PAGE, DEFAULT_DELIVERY_PAGE);
