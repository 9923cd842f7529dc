/**
 * GET /v1/releases/{release_id}/changes/summary?since={older}: how two releases the history knows
 * differ, counted: added, removed, changed, and per rated field the `old→new` transitions
 * (the read service's summary.ts). Immutable: both releases are, so it is served as pinned.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { problemResponses, RATE_LIMIT_HEADERS } from "../http/openapi-responses";
import { strictQuery } from "../http/strict-query";
import { catalogRoute, type CatalogAccess } from "../catalog/access";
import { NOT_MODIFIED, RELEASE_HEADERS } from "../catalog/openapi-responses";
import { ReleaseIdParam } from "../catalog/params";
import { changesParamProblem } from "../catalog/release-changes";
import { compareReleases } from "../catalog/service/summary";
import { CACHE_PINNED } from "../catalog/representation";
import { ChangesSummary } from "../../common/catalog/history-schemas";
import { jsonAnswer } from "./json-answer";

const SummaryQuery = strictQuery({
  since: ReleaseIdParam.openapi({
    param: { name: "since", in: "query" },
    description: "The older release: `sha256:<64 hex>` or the bare hex; any release the history knows, kept or not.",
  }),
});

export function registerChangesSummaryRoute(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const route = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/{release_id}/changes/summary",
    operationId: "getReleaseChangesSummary",
    summary: "How two releases differ, counted: added, removed, changed and each field's transitions",
    description:
      "From the profile history, so `since` may be any release ever made current on this deployment since its history began, kept or pruned. " +
      "`transitions` counts only profiles present in both releases whose value differs, keyed `old→new` (U+2192). " +
      "A release the history does not know is `404 release_not_found` naming it.",
    request: { params: z.object({ release_id: ReleaseIdParam }), query: SummaryQuery },
    responses: {
      200: {
        description: "The summary.",
        headers: { ...RELEASE_HEADERS, ...RATE_LIMIT_HEADERS },
        content: { "application/json": { schema: ChangesSummary } },
      },
      304: NOT_MODIFIED,
      ...problemResponses("bad_request", "invalid_release_id", "release_not_found", "catalog_unavailable"),
    },
  });
  app.openapi(
    route,
    async (c) => {
      const { release_id } = c.req.valid("param");
      const summary = await compareReleases(c.env, { releaseId: release_id, since: c.req.valid("query").since });
      return jsonAnswer(c, summary, { cacheControl: CACHE_PINNED, release: release_id });
    },
    changesParamProblem,
  );
}
