/**
 * GET /v1/profiles and GET /v1/releases/{release_id}/profiles: filtered, sorted, faceted queries of
 * one release (docs/contract.md, "Querying the catalog"). Matching rows come from the D1 query
 * tables by index (query-plan.ts), the profiles' bytes from the release's parts, as single lookups
 * serve them; the counts come from the tables, or from the counts kept at publish.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import type { ProblemCode } from "../http/problem-types";
import { listSchema } from "../http/list-page";
import type { Manifest } from "../../common/catalog/manifest";
import { Profile, Sha256Digest } from "../../common/catalog/schema";
import { catalogRoute, type CatalogAccess } from "./access";
import { ReleaseIdParam } from "./params";
import { allowedValuesOf, ProfileQueryParams, profileQueryOf } from "./query-params";
import { queryHook } from "./query-problem";
import { IF_NONE_MATCH } from "../http/openapi-responses";
import { listResponse, listResponses, pinnedListPath } from "./query-response";
import { runProfileQuery } from "./query-run";
import { resolveRelease } from "./service/release";

const Facets = z
  .record(z.string(), z.record(z.string(), z.int()))
  .openapi({ description: "Per asked field, the number of matches with each value (largest first)." });

const ProfileList = listSchema("ProfileList", Profile, {
  release_id: Sha256Digest,
  count: z.int().openapi({ description: "The exact number of matches." }),
  facets: Facets.optional(),
});

const responses = (...codes: ProblemCode[]) =>
  listResponses(
    ProfileList,
    "One page of the matches, in the asked order, each profile exactly as its bytes stand in the document.",
    ...codes,
  );

const DESCRIPTION =
  "Filters combine with *and*; a comma-separated list means *any of*. Keyset paging: `next` is a pinned URL that carries " +
  "the query, so paging stays in the release it started in. Bad input is one 400 listing every problem.";

export function registerProfileQueryRoutes(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const hook = queryHook(allowedValuesOf);
  const current = catalogRoute(access, {
    method: "get",
    path: "/v1/profiles",
    operationId: "queryCurrentProfiles",
    summary: "Query the profiles of the current release",
    description: `${DESCRIPTION} Content-Location names the pinned URL of the same page.`,
    parameters: [IF_NONE_MATCH],
    request: { query: ProfileQueryParams },
    responses: responses("catalog_unavailable"),
  });
  app.openapi(current, async (c) => answer(c, await resolveRelease(c.env.CATALOG_KV), false), hook);

  const pinned = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/{release_id}/profiles",
    operationId: "queryReleaseProfiles",
    summary: "Query the profiles of a given release (immutable)",
    description: DESCRIPTION,
    parameters: [IF_NONE_MATCH],
    request: { params: z.object({ release_id: ReleaseIdParam }), query: ProfileQueryParams },
    responses: responses("invalid_release_id", "release_not_found"),
  });
  app.openapi(
    pinned,
    async (c) => answer(c, await resolveRelease(c.env.CATALOG_KV, c.req.valid("param").release_id), true),
    hook,
  );
}

async function answer(c: Context<AppEnv>, manifest: Manifest, pinned: boolean) {
  const query = profileQueryOf(c.req.valid("query" as never));
  const found = await runProfileQuery(c.env, manifest, query);
  const next = found.nextCursor ? pinnedListPath(manifest, "profiles", c.req.url, found.nextCursor) : null;
  const pieces: (string | Uint8Array)[] = [
    `{"object":"list","release_id":${JSON.stringify(manifest.release_id)},"count":${found.count},"data":[`,
  ];
  for (const [i, profile] of found.bytes.entries()) pieces.push(...(i ? [",", profile] : [profile]));
  pieces.push(`],"has_more":${next !== null},"next":${JSON.stringify(next)}`);
  if (found.facets) pieces.push(`,"facets":${JSON.stringify(found.facets)}`);
  pieces.push("}");
  const pinnedPath = pinnedListPath(manifest, "profiles", c.req.url, query.cursor);
  return listResponse(manifest, pieces, { pinnedPath, next, pinned, ifNoneMatch: c.req.header("If-None-Match") });
}
