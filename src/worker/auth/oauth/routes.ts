/**
 * Registers the protocol endpoints of the authorization server: metadata (RFC 8414), token
 * (RFC 6749 §3.2) and revocation (RFC 7009). The interactive `/oauth/authorize` page lives in
 * src/worker/web. Dynamic client registration (RFC 7591): registration-endpoint.ts.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { documentOAuth } from "./openapi";
import { OAUTH_ENDPOINTS } from "./provider";
import { CLIENT_REGISTRATION_ENDPOINT } from "./dynamic-registration";
import { documentRegistration, registrationEndpoint } from "./registration-endpoint";
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

export function registerOAuthEndpoints(app: OpenAPIHono<AppEnv>): void {
  documentOAuth(app);
  app.on(["GET", "OPTIONS"], OAUTH_ENDPOINTS.metadata, serverMetadata);
  // Other methods get the app's 405 with Allow (src/worker/http/allowed-methods.ts).
  app.on(["POST", "OPTIONS"], OAUTH_ENDPOINTS.token, (c) =>
    c.req.method === "OPTIONS" ? serveProtocol(c, c.req.raw) : tokenEndpoint(c),
  );
  documentRegistration(app);
  app.on(["POST", "OPTIONS"], CLIENT_REGISTRATION_ENDPOINT, registrationEndpoint);
  app.on(["POST", "OPTIONS"], OAUTH_ENDPOINTS.revoke, (c) =>
    c.req.method === "OPTIONS" ? revocationPreflight(c) : revocationEndpoint(c),
  );
}
