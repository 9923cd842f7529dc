/**
 * The catalog's HTTP surface (docs/contract.md, "URLs"): the document, its parts, release
 * manifests, single profiles, a product's profiles, and queries of the profiles, products and funnels. src/worker/index.ts registers it with one call and
 * decides the access guard.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import type { CatalogAccess } from "./access";
import { registerDocumentRoute } from "./document";
import { registerPartRoutes } from "./parts";
import { registerProductRoutes } from "./products";
import { registerBrowseRoutes } from "./browse";
import { registerProfileQueryRoutes } from "./profile-query";
import { registerProfileRoutes } from "./profiles";
import { registerChangedProfilesRoute } from "./release-changed-profiles";
import { registerReleaseChangesRoute } from "./release-changes";
import { registerReleaseHistoryRoute } from "./release-history";
import { registerReleaseRoutes } from "./releases";
import { registerHistoryRoutes } from "../history";

export type { CatalogAccess } from "./access";

export function registerCatalogRoutes(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  registerDocumentRoute(app, access);
  registerPartRoutes(app, access);
  registerReleaseHistoryRoute(app, access);
  registerReleaseRoutes(app, access);
  registerReleaseChangesRoute(app, access);
  registerChangedProfilesRoute(app, access);
  registerProfileQueryRoutes(app, access);
  registerHistoryRoutes(app, access); // before the lookups: /v1/profiles/arp_…/history is a history
  registerProfileRoutes(app, access);
  registerProductRoutes(app, access);
  registerBrowseRoutes(app, access);
}
