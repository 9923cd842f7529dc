/** GET/HEAD /v1/catalog: the whole current document, streamed from its parts. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { NO_QUERY } from "../http/strict-query";
import { Envelope } from "../../common/catalog/schema";
import { catalogRoute, plainResponse, type CatalogAccess } from "./access";
import { problemResponses } from "../http/openapi-responses";
import { BYTE_HEADERS, BYTE_PARAMETERS, NOT_MODIFIED, PARTIAL_CONTENT } from "./openapi-responses";
import { currentRelease } from "./release-lookup";
import { documentRepresentation } from "./representation";
import { serveBytes } from "./serve-bytes";

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
      "If-Range with the ETag makes a resumed download safe across releases.",
    request: { query: NO_QUERY },
    parameters: BYTE_PARAMETERS,
    responses: {
      200: {
        description: "The document.",
        headers: BYTE_HEADERS,
        content: { "application/json": { schema: Envelope } },
      },
      206: PARTIAL_CONTENT,
      304: NOT_MODIFIED,
      ...problemResponses("precondition_failed", "range_not_satisfiable", "catalog_unavailable", "release_unavailable"),
    },
  });
  app.openapi(route, async (c) =>
    plainResponse(await serveBytes(c, documentRepresentation(await currentRelease(c.env.CATALOG_KV)))),
  );
}
