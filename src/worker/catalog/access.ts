/**
 * The one point where access control attaches to every catalog route: `registerCatalogRoutes`
 * receives a `CatalogAccess` from src/worker/index.ts, and each route is built by `catalogRoute`, which
 * runs the guard before validation and records the security requirement in /openapi.json. Both
 * are required: no catalog route can be registered unguarded. So is its query schema
 * (`strictQuery`/`NO_QUERY`, src/worker/http/strict-query.ts): no route ignores an unknown parameter.
 */
import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context";
import type { StrictQueryRequest } from "../http/strict-query";

export interface CatalogAccess {
  /** Runs before every catalog route (authentication and the `read:catalog` scope). */
  guard: MiddlewareHandler<AppEnv>;
  /** The OpenAPI security requirement the guard enforces. */
  security: NonNullable<RouteConfig["security"]>;
}

export function catalogRoute<const R extends Omit<RouteConfig, "middleware" | "security"> & StrictQueryRequest>(
  access: CatalogAccess,
  config: R,
) {
  return createRoute({
    ...config,
    tags: ["Catalog"],
    middleware: [access.guard],
    security: access.security,
  });
}

export { plainResponse } from "../http/plain-response";
