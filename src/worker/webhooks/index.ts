/**
 * Webhooks (docs/webhooks.md): the endpoint API under /v1/webhook_endpoints, the queue consumer
 * and the WebhookStore. src/worker/index.ts registers the routes with one call.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { registerEndpointRoutes } from "./endpoint";
import { registerEndpointListRoutes } from "./endpoints";

export function registerWebhookRoutes(app: OpenAPIHono<AppEnv>) {
  registerEndpointListRoutes(app);
  registerEndpointRoutes(app);
}
