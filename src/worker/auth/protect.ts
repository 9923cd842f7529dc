/**
 * `protect(scope)`: the three middleware of every protected route, in their one correct order:
 * authenticate (who?) → rateLimit (revoked? within the limit?) → requireScope (allowed?).
 * `bearerSecurity(scope)` is the matching OpenAPI security requirement.
 *
 * @example
 * registerCatalogRoutes(app, { guard: protect("read:catalog"), security: bearerSecurity("read:catalog") })
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { every } from "hono/combine";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context";
import { OAUTH_SCHEME_NAME } from "./oauth/openapi";
import { rateLimit } from "./rate-limit";
import { authenticate, type AuthenticateOptions } from "./authenticate";
import { requireScope } from "./require-scope";
import { ADMIN_SCOPE, type Scope } from "../../common/auth/scopes";

export const BEARER_SCHEME_NAME = "bearerAuth";

/**
 * Without a scope, any valid credential passes (the route then decides, e.g. /v1/keys). `options`
 * as for `authenticate` (the MCP server's own token audience).
 */
export function protect(scope?: Scope, options: AuthenticateOptions = {}): MiddlewareHandler<AppEnv> {
  const authn = authenticate(options);
  return scope ? every(authn, rateLimit(), requireScope(scope)) : every(authn, rateLimit());
}

/**
 * The `security` of a route that `protect(scope)` guards (OpenAPI 3.1 §4.8.30): an API key or an
 * OAuth access token with the scope, or with `admin`, which implies every scope (any one
 * requirement). Without a scope (/v1/keys) only API keys: keys are managed with keys
 * (src/worker/keys/caller.ts refuses tokens).
 */
export function bearerSecurity(scope?: Scope): Record<string, string[]>[] {
  if (!scope) return [{ [BEARER_SCHEME_NAME]: [] }];
  const scopes = scope === ADMIN_SCOPE ? [scope] : [scope, ADMIN_SCOPE];
  return scopes.flatMap((needed): Record<string, string[]>[] => [
    { [BEARER_SCHEME_NAME]: [needed] },
    { [OAUTH_SCHEME_NAME]: [needed] },
  ]);
}

/** Declares the Bearer scheme once in /openapi.json's components. */
export function registerBearerScheme(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", BEARER_SCHEME_NAME, {
    type: "http",
    scheme: "bearer",
    description:
      "An API key: `sk_live_…` on production, `sk_test_…` on the sandbox. An OAuth access token (`oat_…`, scheme oauth2) is sent the same way.",
  });
}
