/**
 * GET /v1/releases/{release_id}/changes?since={release_id}: the profiles added, changed and
 * removed between two kept releases (either direction), in catalog order, paged by byte offset
 * into the list stored per pair (changes-store.ts), computed on the first request for a pair that
 * publish did not compute. Immutable: both releases are.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import {
  changesCursorOpener,
  cursorWithAfterAlias,
  oneCursorName,
  presentedCursor,
  sealChangesCursor,
} from "../http/cursor";
import { listPage, listSchema } from "../http/list-page";
import { limitParam } from "../http/limit-param";
import { strictQuery } from "../http/strict-query";
import { problemResponses } from "../http/openapi-responses";
import { validationProblem } from "../http/validation-problem";
import { Sha256Digest } from "../../common/catalog/schema";
import { catalogRoute, type CatalogAccess } from "./access";
import { RELEASE_HEADERS } from "./openapi-responses";
import { paramProblem, ReleaseIdParam } from "./params";
import { CACHE_PINNED } from "./representation";
import { CHANGES_PAGE_LIMIT, changesPagePath, listChanges } from "./service/changes";

const Change = z
  .strictObject({
    change: z.enum(["added", "changed", "removed"]),
    agent_readiness_profile_id: z.string(),
    product_key: z.string(),
    funnel_key: z.string(),
    sha256: Sha256Digest.optional().openapi({
      description: "Of the profile's bytes in `release_id` (not on `removed`).",
    }),
    offset: z.int().optional().openapi({ description: "Where those bytes start in `release_id`'s document." }),
    length: z.int().optional(),
    previous_sha256: Sha256Digest.optional().openapi({
      description: "Of the profile's bytes in `since` (not on `added`).",
    }),
    previous_offset: z.int().optional().openapi({ description: "Where those bytes start in `since`'s document." }),
    previous_length: z.int().optional(),
    href: z.string().openapi({
      description: "The pinned URL of the profile: in `release_id`, or in `since` for a removed one.",
    }),
  })
  .openapi("ReleaseChange");

const restCursor = (parameter: string) => ({ parameter, source: "`next` URL" });

const ChangeList = listSchema("ReleaseChangeList", Change, {
  release_id: Sha256Digest,
  since: Sha256Digest,
  count: z.int().min(0).openapi({ description: "Every change between the two releases, on all pages." }),
});

const ChangesQuery = strictQuery({
  since: ReleaseIdParam.openapi({
    param: { name: "since", in: "query" },
    description: "The release the copy holds: `sha256:<64 hex>` or the bare hex.",
  }),
  limit: limitParam({ what: "Changes", max: CHANGES_PAGE_LIMIT, default: CHANGES_PAGE_LIMIT }),
  ...cursorWithAfterAlias,
}).refine(...oneCursorName);

export function registerReleaseChangesRoute(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const route = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/{release_id}/changes",
    operationId: "listReleaseChanges",
    summary: "The profiles that differ between two kept releases",
    description:
      "Added, changed and removed profiles from `since` to `release_id`, in catalog order; identical profiles are not listed. " +
      "`since` equal to `release_id` is an empty list; `since` not kept is `410 release_gone`.",
    request: { params: z.object({ release_id: ReleaseIdParam }), query: ChangesQuery },
    responses: {
      200: {
        description: "One page of the changes.",
        headers: RELEASE_HEADERS,
        content: { "application/json": { schema: ChangeList } },
      },
      ...CHANGES_PROBLEMS,
    },
  });
  app.openapi(
    route,
    async (c) => {
      const { release_id } = c.req.valid("param");
      const query = c.req.valid("query");
      const { since, limit } = query;
      const presented = presentedCursor(query);
      const from = presented
        ? changesCursorOpener(c.env, presented.cursor, restCursor(presented.parameter))
        : undefined;
      const read = await listChanges(c.env, { releaseId: release_id, since, from, limit });
      const pagePath = async (offset: number) =>
        changesPagePath(read, limit, await sealChangesCursor(c.env, read, offset, restCursor("cursor")));
      c.header("Catalog-Release", read.release.release_id);
      c.header("Cache-Control", CACHE_PINNED);
      const next = read.next === null ? null : await pagePath(read.next);
      const extra = { release_id: read.release.release_id, since: read.since.release_id, count: read.count };
      return c.json(listPage(read.changes, next, extra), 200);
    },
    changesParamProblem,
  );
}

/** The problems both changes routes answer. */
export const CHANGES_PROBLEMS = problemResponses(
  "bad_request",
  "invalid_release_id",
  "release_not_found",
  "release_gone",
  "release_not_indexed",
  "catalog_unavailable",
  "release_unavailable",
);

/** The route hook of both changes routes: a bad release id is its own 400, the rest one validation problem. */
export function changesParamProblem(result: { success: boolean; error?: unknown; target: string }, c: Context) {
  if (result.success) return undefined;
  if (result.target === "param") return paramProblem(result, c);
  throw validationProblem(result.error as never, result.target);
}
