/**
 * GET /v1/releases/{release_id}/changes?since={release_id}: the profiles added, changed and
 * removed between two kept releases (either direction), in catalog order, paged by byte offset
 * into the list stored per pair (changes-store.ts), computed on the first request for a pair that
 * publish did not compute. Immutable: both releases are.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import { type CursorScope, cursorParam, openNumberCursor, sealCursor } from "../http/cursor";
import { limitParam } from "../http/limit-param";
import { strictQuery } from "../http/strict-query";
import { problemResponses } from "../http/openapi-responses";
import { Problem } from "../http/problem";
import { validationProblem } from "../http/validation-problem";
import { cursorProblem } from "../http/query-problem";
import {
  ChangesCursorInvalid,
  ensureChanges,
  readChangesPage,
  ReleaseWithoutIndex,
} from "../../common/catalog/changes-store";
import { asDigest } from "../../common/catalog/digest";
import type { Manifest } from "../../common/catalog/manifest";
import type { ReleaseChange } from "../../common/catalog/release-changes";
import { Sha256Digest } from "../../common/catalog/schema";
import { readCurrentPointer } from "../../common/catalog/store";
import { catalogRoute, type CatalogAccess } from "./access";
import { IndexReader } from "./index-reader";
import { RELEASE_HEADERS } from "./openapi-responses";
import { paramProblem, ReleaseIdParam } from "./params";
import { profileIdPath } from "./profile-representation";
import { pinnedRelease } from "./release-lookup";
import { CACHE_PINNED } from "./representation";

export const CHANGES_PAGE_LIMIT = 1000;
const REST_CURSOR = { parameter: "after", source: "`next` URL" };

/** A changes cursor is a place (a byte offset) in the list from `since` to the release it carries. */
export const changesCursorScope = (since: Manifest, words: { parameter: string; source: string }): CursorScope => ({
  list: "changes",
  query: since.release_id,
  ...words,
});

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

const ChangeList = z
  .strictObject({
    object: z.literal("list"),
    release_id: Sha256Digest,
    since: Sha256Digest,
    count: z.int().min(0).openapi({ description: "Every change between the two releases, on all pages." }),
    data: z.array(Change).max(CHANGES_PAGE_LIMIT),
    has_more: z.boolean(),
    next: z.string().nullable().openapi({ description: "The next page's URL while `has_more`." }),
  })
  .openapi("ReleaseChangeList");

const ChangesQuery = strictQuery({
  since: ReleaseIdParam.openapi({
    param: { name: "since", in: "query" },
    description: "The release the copy holds: `sha256:<64 hex>` or the bare hex.",
  }),
  limit: limitParam({ what: "Changes", max: CHANGES_PAGE_LIMIT, default: CHANGES_PAGE_LIMIT }),
  after: cursorParam("after"),
});

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
      const { since, limit, after } = c.req.valid("query");
      const newer = await pinnedRelease(c.env.CATALOG_KV, release_id);
      const older = await keptRelease(c.env, since);
      const summary = await changesOf(c.env, newer, older);
      const scope = changesCursorScope(older, REST_CURSOR);
      const from = after === undefined ? 0 : await openNumberCursor(c.env, scope, after, newer.release_id);
      const page = await readChangesPage(c.env.RELEASES, newer, older, from, limit).catch((error: unknown) => {
        if (!(error instanceof ChangesCursorInvalid)) throw error;
        const message = `not a cursor of this list: ${error.message}; take it from \`next\``;
        throw cursorProblem("after", message);
      });
      const next =
        page.next === null ? null : await sealCursor(c.env, scope, { release: newer.release_id, at: page.next });
      c.header("Catalog-Release", newer.release_id);
      c.header("Cache-Control", CACHE_PINNED);
      return c.json(
        {
          object: "list" as const,
          release_id: newer.release_id,
          since: older.release_id,
          count: summary.count,
          data: page.changes.map((change) => changeView(change, newer, older)),
          has_more: next !== null,
          next:
            next && `/v1/releases/${newer.release_id}/changes?since=${older.release_id}&limit=${limit}&after=${next}`,
        },
        200,
      );
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

/** `since` must be kept (current or one of the 5 before it): older lists are not kept either. */
export async function keptRelease(env: Env, since: string): Promise<Manifest> {
  const pointer = await readCurrentPointer(env.CATALOG_KV);
  if (!pointer)
    throw new Problem("catalog_unavailable", "No catalog release has been published on this deployment yet.");
  const kept = [pointer.release_id, ...pointer.previous];
  if (!kept.includes(since)) {
    const oldest = kept.at(-1) ?? pointer.release_id;
    throw new Problem(
      "release_gone",
      `Release ${since} is not kept on this deployment, so the changes since it cannot be listed; the oldest kept release is ${oldest}. ` +
        "Download the whole current document instead.",
      { extra: { oldest_kept_release_id: oldest } },
    );
  }
  return pinnedRelease(env.CATALOG_KV, since);
}

/** ensureChanges, with a release published before indexes as the 404 a lookup in it would be. */
export function changesOf(env: Env, newer: Manifest, older: Manifest) {
  return ensureChanges(env.RELEASES, newer, older).catch((error: unknown) => {
    if (error instanceof ReleaseWithoutIndex)
      IndexReader.of(env.RELEASES, error.releaseId === newer.release_id ? newer : older, "scope");
    throw error;
  });
}

/** The route hook of both changes routes: a bad release id is its own 400, the rest one validation problem. */
export function changesParamProblem(result: { success: boolean; error?: unknown; target: string }, c: Context) {
  if (result.success) return undefined;
  if (result.target === "param") return paramProblem(result, c);
  throw validationProblem(result.error as never, result.target);
}

/** One change as both the route and the MCP tool `list_changes` show it. */
export function changeView(change: ReleaseChange, newer: Manifest, older: Manifest) {
  const { current, previous } = change;
  return {
    change: change.change,
    agent_readiness_profile_id: change.id,
    product_key: change.productKey,
    funnel_key: change.funnelKey,
    ...(current && { sha256: asDigest(current.sha256), offset: current.offset, length: current.length }),
    ...(previous && {
      previous_sha256: asDigest(previous.sha256),
      previous_offset: previous.offset,
      previous_length: previous.length,
    }),
    href: profileIdPath(current ? newer.release_id : older.release_id, change.id),
  };
}
