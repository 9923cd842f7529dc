/** Request shapes of the webhook endpoint API (/v1/webhook_endpoints), documented in /openapi.json. */
import { z } from "@hono/zod-openapi";
import { limitParam } from "../http/limit-param";
import { strictQuery } from "../http/strict-query";
import { DEFAULT_EVENT_TYPES, EventTypeSchema } from "./events";
import { MAX_URL_LENGTH, targetUrlProblems } from "./target-url";
import { ENDPOINT_ID_PATTERN, WebhookEndpointView } from "./views";

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

export const EndpointList = z
  .object({
    object: z.literal("list"),
    data: z.array(WebhookEndpointView).openapi({ description: "Oldest first; at most 5." }),
    has_more: z.literal(false),
    url: z.literal(ENDPOINT_LIST_URL),
  })
  .openapi("WebhookEndpointList");

export const DeliveryListQuery = strictQuery({
  limit: limitParam({ what: "Deliveries (the newest)", max: MAX_DELIVERY_PAGE, default: DEFAULT_DELIVERY_PAGE }),
});
