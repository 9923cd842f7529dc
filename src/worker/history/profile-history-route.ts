/**
 * GET /v1/profiles/{product_key}/{funnel_key}/history and GET /v1/profiles/{agent_readiness_profile_id}/history
 * (docs/history.md): one entry per publish or rollback at which the profile's bytes changed, newest
 * first, kept for every event the deployment had. Told apart by the `arp_` prefix as the lookups
 * are: the id route is registered before the profile lookups, its path matching only `arp_…`.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import { problemResponses, RATE_LIMIT_HEADERS } from "../http/openapi-responses";
import { strictQuery } from "../http/strict-query";
import { listPage, listSchema } from "../http/list-page";
import { catalogRoute, type CatalogAccess } from "../catalog/access";
import { NOT_MODIFIED } from "../catalog/openapi-responses";
import { FunnelKeyParam, ProductKeyParam, ProfileIdParam, profileParamProblem } from "../catalog/profile-params";
import { CursorParam, catalogLimitParam, DEFAULT_LIMIT } from "../catalog/query-params";
import { queryHook } from "../catalog/query-problem";
import type { ProfileRef } from "../catalog/service/errors";
import { profileHistoryPage } from "../catalog/service/history";
import { CACHE_CURRENT } from "../catalog/representation";
import { ProfileHistoryEntry } from "../../common/catalog/history-schemas";
import { jsonAnswer } from "./json-answer";

const ProfileHistoryList = listSchema("ProfileHistoryList", ProfileHistoryEntry);

const HistoryQuery = strictQuery({ limit: catalogLimitParam("Entries"), cursor: CursorParam });

const DESCRIPTION =
  "One entry per publish or rollback at which this profile's bytes differed from the release current before, newest first, " +
  "with its rated fields then (for `removed`, the last ones it had) and which of them changed. Kept for every event, also of " +
  "releases no longer kept. A profile that never existed is `404 profile_not_found`; one that was removed answers its history.";

const responsesWith = (...codes: Parameters<typeof problemResponses>) => ({
  200: {
    description: "One page of the profile's history.",
    headers: {
      ...RATE_LIMIT_HEADERS,
      ETag: {
        description: 'Strong: `"<hex>"`, the SHA-256 of the body (If-None-Match → 304).',
        schema: { type: "string" as const },
      },
      "Content-Digest": {
        description: "RFC 9530 `sha-256=:<base64>:` of the body.",
        schema: { type: "string" as const },
      },
      Link: { description: '`<next page>; rel="next"` while more follow.', schema: { type: "string" as const } },
    },
    content: { "application/json": { schema: ProfileHistoryList } },
  },
  304: NOT_MODIFIED,
  ...problemResponses(
    "unknown_parameter",
    "invalid_parameter",
    "invalid_cursor",
    "profile_not_found",
    "catalog_unavailable",
    ...codes,
  ),
});

/** Path parameters first (their own problems), then every query problem at once. */
function historyHook(result: { success: boolean; target: string; error?: unknown }, c: Context) {
  if (result.success) return undefined;
  if (result.target === "query") return queryHook(() => undefined)(result, c);
  return profileParamProblem(result, c);
}

export function registerProfileHistoryRoutes(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const byScope = catalogRoute(access, {
    method: "get",
    path: "/v1/profiles/{product_key}/{funnel_key}/history",
    operationId: "getProfileHistoryByScope",
    summary: "How one profile changed, publish by publish, by product and funnel key",
    description: DESCRIPTION,
    request: { query: HistoryQuery, params: z.object({ product_key: ProductKeyParam, funnel_key: FunnelKeyParam }) },
    responses: responsesWith("invalid_scope_key"),
  });
  app.openapi(
    byScope,
    async (c) => {
      const { product_key, funnel_key } = c.req.valid("param");
      return answer(c, { product: product_key, funnel: funnel_key }, c.req.valid("query"));
    },
    historyHook,
  );

  const byId = catalogRoute(access, {
    method: "get",
    path: "/v1/profiles/{agent_readiness_profile_id}/history",
    operationId: "getProfileHistoryById",
    summary: "How one profile changed, publish by publish, by id",
    description: DESCRIPTION,
    request: { query: HistoryQuery, params: z.object({ agent_readiness_profile_id: ProfileIdParam }) },
    // An id without `arp_` is the lookup of a funnel named "history": its key problem is that route's.
    responses: responsesWith("invalid_profile_id", "invalid_scope_key"),
  });
  const { middleware: _, ...documented } = byId;
  app.openAPIRegistry.registerPath(documented);
  // Routed only for `arp_…`, so /v1/profiles/<product>/history stays the lookup of funnel "history".
  const routed = { ...byId, hide: true, path: "/v1/profiles/{agent_readiness_profile_id{arp_\\w*}}/history" };
  app.openapi(
    routed,
    async (c) => answer(c, { id: c.req.valid("param").agent_readiness_profile_id }, c.req.valid("query")),
    historyHook,
  );
}

async function answer(c: Context<AppEnv>, target: ProfileRef, query: { limit?: number; cursor?: string }) {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const page = await profileHistoryPage(c.env, target, { limit, cursor: query.cursor });
  const base = new URL(c.req.url).pathname;
  const next = page.next_cursor === null ? null : `${base}?limit=${limit}&cursor=${page.next_cursor}`;
  return jsonAnswer(c, listPage(page.data, next), { cacheControl: CACHE_CURRENT, next });
}
