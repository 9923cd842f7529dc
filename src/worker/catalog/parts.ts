/**
 * GET /v1/catalog/parts/{n} (part n of the current release) and
 * GET /v1/releases/{release_id}/parts/{n} (part n of a given release; immutable).
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { NO_QUERY } from "../http/strict-query";
import { catalogRoute, plainResponse, type CatalogAccess } from "./access";
import { problemResponses } from "../http/openapi-responses";
import { BYTE_PARAMETERS, NOT_MODIFIED, PART_HEADERS, PARTIAL_PART } from "./openapi-responses";
import { paramProblem, PartNumberParam, ReleaseIdParam } from "./params";
import { partOf } from "./release-lookup";
import { resolveRelease } from "./service/release";
import { partRepresentation } from "./representation";
import { serveBytes } from "./serve-bytes";

const partBody = {
  description: "The part's raw bytes: a slice of the document, which may end inside a profile or a UTF-8 character.",
  headers: PART_HEADERS,
  content: { "application/octet-stream": { schema: { type: "string" as const, format: "binary" } } },
};

export function registerPartRoutes(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const currentPart = catalogRoute(access, {
    method: "get",
    path: "/v1/catalog/parts/{n}",
    operationId: "getCurrentPart",
    summary: "Part n of the current release",
    description:
      "Content-Location and Link point at the pinned URLs of the same release: follow them (not this URL) to page through " +
      "the parts without mixing two releases.",
    request: { query: NO_QUERY, params: z.object({ n: PartNumberParam }) },
    parameters: BYTE_PARAMETERS,
    responses: {
      200: partBody,
      206: PARTIAL_PART,
      304: NOT_MODIFIED,
      ...problemResponses(
        "invalid_part_number",
        "part_not_found",
        "precondition_failed",
        "range_not_satisfiable",
        "catalog_unavailable",
        "release_unavailable",
      ),
    },
  });
  app.openapi(
    currentPart,
    async (c) => {
      const manifest = await resolveRelease(c.env.CATALOG_KV);
      const index = partOf(manifest, c.req.valid("param").n);
      return plainResponse(await serveBytes(c, partRepresentation(manifest, index, false)));
    },
    paramProblem,
  );

  const pinnedPart = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/{release_id}/parts/{n}",
    operationId: "getReleasePart",
    summary: "Part n of a given release (immutable)",
    description: "Pinned to one release: the bytes never change, so the response may be cached for a year.",
    request: { query: NO_QUERY, params: z.object({ release_id: ReleaseIdParam, n: PartNumberParam }) },
    parameters: BYTE_PARAMETERS,
    responses: {
      200: partBody,
      206: PARTIAL_PART,
      304: NOT_MODIFIED,
      ...problemResponses(
        "invalid_release_id",
        "invalid_part_number",
        "release_not_found",
        "part_not_found",
        "precondition_failed",
        "range_not_satisfiable",
        "release_unavailable",
      ),
    },
  });
  app.openapi(
    pinnedPart,
    async (c) => {
      const { release_id, n } = c.req.valid("param");
      const manifest = await resolveRelease(c.env.CATALOG_KV, release_id);
      return plainResponse(await serveBytes(c, partRepresentation(manifest, partOf(manifest, n), true)));
    },
    paramProblem,
  );
}
