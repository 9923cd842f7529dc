/**
 * The MCP server as an OAuth protected resource: its identifier (RFC 8707 resource, the audience
 * of its tokens) and its metadata document (RFC 9728), which names this deployment's origin as
 * the authorization server whose RFC 8414 metadata is at /.well-known/oauth-authorization-server.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import { MCP_PATH, mcpResourceOf, PROTECTED_RESOURCE_METADATA_PATH } from "./resource-id";

export const MCP_SCOPE = "read:catalog";

function metadata(c: Context<AppEnv>) {
  const origin = c.var.publicOrigin;
  return c.json(
    {
      resource: mcpResourceOf(origin),
      authorization_servers: [origin],
      scopes_supported: [MCP_SCOPE],
      bearer_methods_supported: ["header"],
      resource_name: "Readiness Catalog MCP server",
      resource_documentation: `${origin}/docs`,
    },
    200,
    { "Cache-Control": "public, max-age=300" },
  );
}

export function registerProtectedResourceMetadata(app: OpenAPIHono<AppEnv>) {
  // RFC 9728 §3.1: the well-known URI of the resource `<origin>/mcp` is the path-suffixed one;
  // the bare one serves the same document, for clients that look there first.
  app.get(PROTECTED_RESOURCE_METADATA_PATH, metadata);
  app.get(`${PROTECTED_RESOURCE_METADATA_PATH}${MCP_PATH}`, metadata);
}
