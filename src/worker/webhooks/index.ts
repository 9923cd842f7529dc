/**
 * Webhooks (docs/webhooks.md): the endpoint API under /v1/webhook_endpoints, the queue consumer
 * and the WebhookStore. src/worker/index.ts registers the routes with one call.
 */
import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { EVENT_TYPES, ReleaseEventBody, WATCH_EVENT_TYPE, WatchTriggeredBody } from "./events";
import type { AppEnv } from "../http/context";
import { registerEndpointRoutes } from "./endpoint";
import { registerEndpointListRoutes } from "./endpoints";

export function registerWebhookRoutes(app: OpenAPIHono<AppEnv>) {
  registerEndpointListRoutes(app);
  registerEndpointRoutes(app);
  registerEventDescriptions(app);
}

/** OpenAPI 3.1 `webhooks`: what each event's delivery to a registered endpoint looks like. */
function registerEventDescriptions(app: OpenAPIHono<AppEnv>) {
  const headers = {
    "webhook-id": "The delivery's id (`msg_…`), the same on every retry: deduplicate on it.",
    "webhook-timestamp": "Unix seconds of this attempt.",
    "webhook-signature": "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` per signing secret, space-separated.",
  };
  for (const type of EVENT_TYPES) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `${type.replace(".", "_")}_webhook`,
      tags: ["Webhooks"],
      // Sent by this API, so no credential of the receiver's: the signature authenticates it.
      security: [],
      summary: `The ${type} event, POSTed to each subscribed endpoint`,
      description:
        "Signed per Standard Webhooks (docs/webhooks.md). Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h.",
      request: {
        headers: z.object(
          Object.fromEntries(
            Object.entries(headers).map(([name, description]) => [name, z.string().openapi({ description })]),
          ),
        ),
        body: {
          required: true,
          content: {
            "application/json": { schema: type === WATCH_EVENT_TYPE ? WatchTriggeredBody : ReleaseEventBody },
          },
        },
      },
      responses: { 200: { description: "Any 2xx: received." } },
    });
  }
}
