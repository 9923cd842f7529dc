/**
 * What every operator API route shares (routes.ts, admin-requests.ts):
 * the base path, the account-id parameter and `operatorRoute()`, which keeps a route out of
 * /openapi.json and behind `requireOperator()`, and refuses unknown query parameters (`NO_QUERY`
 * unless the route declares its own `strictQuery`).
 */
import { createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import { ACCOUNT_ID_PATTERN } from "../../common/auth/ids";
import { NO_QUERY } from "../http/strict-query";
import { requireOperator } from "./auth";

export const OPERATOR_BASE = "/operator/v1";

export const ACCOUNT_ID_RULE = "an account id looks like acct_ + 20 base62 characters";
export const AccountParams = z.object({ account_id: z.string().regex(ACCOUNT_ID_PATTERN, ACCOUNT_ID_RULE) });

export function operatorRoute<const R extends Omit<RouteConfig, "middleware" | "hide" | "responses">>(config: R) {
  return createRoute({
    ...config,
    request: { query: NO_QUERY, ...config.request } as Omit<{ query: typeof NO_QUERY }, keyof R["request"]> &
      R["request"],
    hide: true,
    middleware: [requireOperator()] as const,
    responses: { 200: { description: "ok" } },
  });
}
