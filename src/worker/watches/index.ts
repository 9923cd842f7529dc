/**
 * Watches (docs/history.md "Watches"): /v1/watches and the events each publish and rollback makes
 * them trigger, kept in D1 beside the profile history. src/worker/index.ts registers them at once.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { registerWatchEventRoutes } from "./event-routes";
import { registerWatchRoutes } from "./watch-routes";
import { registerWatchListRoutes } from "./watches-routes";

export function registerWatchesApi(app: OpenAPIHono<AppEnv>) {
  registerWatchListRoutes(app);
  registerWatchRoutes(app);
  registerWatchEventRoutes(app);
}
