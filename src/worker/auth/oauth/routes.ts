/**
 * Registers the protocol endpoints of the authorization server: metadata (RFC 8414), token
 * (RFC 6749 §3.2), revocation (RFC 7009) and dynamic client registration (RFC 7591,
 * registration-endpoint.ts), each its `createRoute` of openapi.ts with its handler, plus the CORS
 * preflight (OPTIONS) the library answers, which is no operation of /openapi.json. The interactive
 * `/oauth/authorize` page lives in src/worker/web.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { plainResponse } from "../../http/plain-response";
import { documentOAuth, metadataRoute, registrationRoute, revocationRoute, tokenRoute } from "./openapi";
import { OAUTH_ENDPOINTS } from "./provider";
import { registrationEndpoint } from "./registration-endpoint";
import { revocationEndpoint, serveProtocol, tokenEndpoint } from "./token-endpoint";

/** RFC 8414 §3: the library's document, pointed at our revocation endpoint and trimmed to S256. */
async function serverMetadata(c: Context<AppEnv>): Promise<Response> {
  const response = await serveProtocol(c, c.req.raw);
  if (c.req.raw.method !== "GET" || response.status !== 200) return response;
  const issuer = c.var.publicOrigin;
  const metadata = await response.json<Record<string, unknown>>();
  const document = {
    ...metadata,
    revocation_endpoint: `${issuer}${OAUTH_ENDPOINTS.revoke}`,
    revocation_endpoint_auth_methods_supported: metadata.token_endpoint_auth_methods_supported,
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    // MCP authorization 2025-11-25: https client_ids naming a metadata document (client-metadata/).
    client_id_metadata_document_supported: true,
  };
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  headers.set("Cache-Control", "public, max-age=300");
  return new Response(JSON.stringify(document), { status: 200, headers });
}

/** CORS preflight for /oauth/revoke, answered by the library as for its token endpoint. */
function revocationPreflight(c: Context<AppEnv>): Promise<Response> {
  return serveProtocol(c, new Request(new URL(OAUTH_ENDPOINTS.token, c.var.publicOrigin), c.req.raw));
}

/** A handler answering the library's own Response, whose shape its route documents. */
const libraryAnswer = (handler: (c: Context<AppEnv>) => Promise<Response>) => async (c: Context<AppEnv>) =>
  plainResponse(await handler(c));

export function registerOAuthEndpoints(app: OpenAPIHono<AppEnv>): void {
  documentOAuth(app);
  // Other methods get the app's 405 with Allow (src/worker/http/allowed-methods.ts).
  app.openapi(metadataRoute, libraryAnswer(serverMetadata));
  app.options(metadataRoute.path, serverMetadata);
  app.openapi(tokenRoute, libraryAnswer(tokenEndpoint));
  app.options(tokenRoute.path, (c) => serveProtocol(c, c.req.raw));
  app.openapi(revocationRoute, libraryAnswer(revocationEndpoint));
  app.options(revocationRoute.path, revocationPreflight);
  app.openapi(registrationRoute, libraryAnswer(registrationEndpoint));
  app.options(registrationRoute.path, registrationEndpoint);
}
