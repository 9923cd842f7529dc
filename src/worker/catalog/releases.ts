/** GET /v1/releases/current and GET /v1/releases/{release_id}: a release's manifest. */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import { NO_QUERY } from "../http/strict-query";
import { Manifest } from "../../common/catalog/manifest";
import { catalogRoute, plainResponse, type CatalogAccess } from "./access";
import { notModified, requireIfMatch } from "./conditional";
import { withIdentityCoding } from "./identity-only";
import { problemResponses } from "../http/openapi-responses";
import { CODING_HEADERS, CONDITIONAL_PARAMETERS, NOT_MODIFIED, RELEASE_HEADERS } from "./openapi-responses";
import { paramProblem, ReleaseIdParam } from "./params";
import { resolveRelease } from "./service/release";
import { CACHE_CURRENT, CACHE_PINNED, releasePath } from "./representation";

const manifestBody = {
  description:
    "The release's manifest: digests, sizes and the part layout. Download the parts from /v1/releases/{release_id}/parts/{n}; " +
    "verify each against `parts[n].sha256`, the whole document against `sha256`, and the data against `artifact_sha256`.",
  headers: { ...RELEASE_HEADERS, ...CODING_HEADERS },
  content: { "application/json": { schema: Manifest } },
};

export function registerReleaseRoutes(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  // Registered before /v1/releases/{release_id}, so "current" is never read as an id.
  const current = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/current",
    operationId: "getCurrentRelease",
    parameters: CONDITIONAL_PARAMETERS,
    summary: "The current release's manifest",
    description: "Content-Location names the pinned manifest URL of the same release.",
    request: { query: NO_QUERY },
    responses: {
      200: manifestBody,
      304: NOT_MODIFIED,
      ...problemResponses("precondition_failed", "catalog_unavailable", "release_unavailable"),
    },
  });
  app.openapi(current, async (c) => plainResponse(manifestResponse(c, await resolveRelease(c.env.CATALOG_KV), false)));

  const pinned = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/{release_id}",
    operationId: "getRelease",
    parameters: CONDITIONAL_PARAMETERS,
    summary: "A given release's manifest (immutable)",
    request: { query: NO_QUERY, params: z.object({ release_id: ReleaseIdParam }) },
    responses: {
      200: manifestBody,
      304: NOT_MODIFIED,
      ...problemResponses("invalid_release_id", "release_not_found", "precondition_failed"),
    },
  });
  app.openapi(
    pinned,
    async (c) =>
      plainResponse(manifestResponse(c, await resolveRelease(c.env.CATALOG_KV, c.req.valid("param").release_id), true)),
    paramProblem,
  );
}

function manifestResponse(c: Context<AppEnv>, manifest: Manifest, pinned: boolean): Response {
  const etag = `"${manifest.release_id}"`;
  const headers = new Headers({
    ETag: etag,
    "Catalog-Release": manifest.release_id,
    "Cache-Control": pinned ? CACHE_PINNED : CACHE_CURRENT,
  });
  if (!pinned) headers.set("Content-Location", releasePath(manifest.release_id));
  requireIfMatch(c.req.header("If-Match"), etag);
  const unchanged = notModified(c.req.header("If-None-Match"), etag, headers);
  if (unchanged) return unchanged;
  headers.set("Content-Type", "application/json");
  withIdentityCoding(headers);
  return new Response(JSON.stringify(manifest), { status: 200, headers });
}
