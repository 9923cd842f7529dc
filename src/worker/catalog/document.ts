/**
 * GET/HEAD /v1/catalog (the whole current document, streamed from its parts) and
 * GET/HEAD /v1/releases/{release_id}/catalog (a given release's document; immutable).
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { NO_QUERY } from "../http/strict-query";
import { Envelope } from "../../common/catalog/schema";
import { catalogRoute, plainResponse, type CatalogAccess } from "./access";
import { header, problemResponses } from "../http/openapi-responses";
import { BYTE_HEADERS, BYTE_PARAMETERS, NOT_MODIFIED, PARTIAL_CONTENT } from "./openapi-responses";
import { paramProblem, ReleaseIdParam } from "./params";
import { resolveRelease } from "./service/release";
import { documentRepresentation } from "./representation";
import { serveBytes } from "./serve-bytes";

const CURRENT_DOCUMENT_HEADERS = {
  ...BYTE_HEADERS,
  "Content-Location": header("`/v1/releases/<release_id>/catalog`: the pinned URL of the same document.", true),
};

export function registerDocumentRoute(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const route = catalogRoute(access, {
    method: "get",
    path: "/v1/catalog",
    operationId: "getCatalog",
    summary: "The whole catalog document (current release)",
    description:
      'Streams the current release\'s document: `{"api_contract":…,"release_id":…,"artifact_sha256":…,"data":[…]}`. ' +
      "HEAD answers the same headers without a body. The strong ETag is the release id (If-None-Match → 304; a failed If-Match → 412). " +
      "One `Range: bytes=` range → 206; several ranges → 200 with the whole document; an unsatisfiable or malformed Range → 416 with `Content-Range: bytes */<size>`. " +
      "Content-Location names the pinned URL of the same document (/v1/releases/{release_id}/catalog): resume a download there, " +
      "since a Range without If-Range on this URL after a publish would be cut from the new release.",
    request: { query: NO_QUERY },
    parameters: BYTE_PARAMETERS,
    responses: {
      200: {
        description: "The document.",
        headers: CURRENT_DOCUMENT_HEADERS,
        content: { "application/json": { schema: Envelope } },
      },
      206: { ...PARTIAL_CONTENT, headers: { ...PARTIAL_CONTENT.headers, ...CURRENT_DOCUMENT_HEADERS } },
      304: NOT_MODIFIED,
      ...problemResponses("precondition_failed", "range_not_satisfiable", "catalog_unavailable", "release_unavailable"),
    },
  });
  app.openapi(route, async (c) =>
    plainResponse(await serveBytes(c, documentRepresentation(await resolveRelease(c.env.CATALOG_KV), false))),
  );

  const pinned = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/{release_id}/catalog",
    operationId: "getReleaseCatalog",
    summary: "The whole catalog document of a given release (immutable)",
    description:
      "Pinned to one release: the bytes never change, so a download resumed with a plain Range (curl -C -, wget -c, " +
      "aria2c -c) or split into ranges (aria2c -x8) always yields one release. Same conditional and range rules as /v1/catalog.",
    request: { query: NO_QUERY, params: z.object({ release_id: ReleaseIdParam }) },
    parameters: BYTE_PARAMETERS,
    responses: {
      200: {
        description: "The document.",
        headers: BYTE_HEADERS,
        content: { "application/json": { schema: Envelope } },
      },
      206: PARTIAL_CONTENT,
      304: NOT_MODIFIED,
      ...problemResponses(
        "invalid_release_id",
        "release_not_found",
        "precondition_failed",
        "range_not_satisfiable",
        "release_unavailable",
      ),
    },
  });
  app.openapi(
    pinned,
    async (c) => {
      const manifest = await resolveRelease(c.env.CATALOG_KV, c.req.valid("param").release_id);
      return plainResponse(await serveBytes(c, documentRepresentation(manifest, true)));
    },
    paramProblem,
  );
}
