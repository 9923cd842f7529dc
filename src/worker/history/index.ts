/**
 * Change over time (docs/history.md): a profile's history and the summary of two releases, read
 * from the D1 history that publish and rollback write. Registered before the profile lookups, so
 * /v1/profiles/arp_…/history is the history of that id.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import type { CatalogAccess } from "../catalog/access";
import { registerChangesSummaryRoute } from "./changes-summary-route";
import { registerProfileHistoryRoutes } from "./profile-history-route";

export function registerHistoryRoutes(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  registerProfileHistoryRoutes(app, access);
  registerChangesSummaryRoute(app, access);
}
