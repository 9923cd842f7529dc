/**
 * /mcp and its protected resource metadata in /openapi.json. Documentation only: the MCP wire
 * format is JSON-RPC 2.0 under the Streamable HTTP transport (docs/mcp.md), owned by the SDK.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { bearerSecurity } from "../auth/protect";
import { problemResponses, RATE_LIMIT_HEADERS } from "../http/openapi-responses";
import type { AppEnv } from "../http/context";
import { IGNORES_UNKNOWN_QUERY } from "../http/strict-query";
import { MCP_PATH, PROTECTED_RESOURCE_METADATA_PATH } from "./resource-id";

const JsonRpc = z
  .record(z.string(), z.unknown())
  .openapi({ description: "One JSON-RPC 2.0 message (a batch, a JSON array, is refused)." });

export function documentMcp(app: OpenAPIHono<AppEnv>) {
  const tags = ["MCP"];
  for (const path of [PROTECTED_RESOURCE_METADATA_PATH, `${PROTECTED_RESOURCE_METADATA_PATH}${MCP_PATH}`]) {
    app.openAPIRegistry.registerPath({
      method: "get",
      path,
      operationId: path.endsWith(MCP_PATH) ? "getMcpResourceMetadata" : "getProtectedResourceMetadata",
      // Metadata, like RFC 8414's: fetched by OAuth clients that may add parameters of their own.
      ...IGNORES_UNKNOWN_QUERY,
      tags,
      summary: "Protected resource metadata of the MCP server (RFC 9728)",
      responses: {
        200: {
          description: "resource, authorization_servers, scopes_supported, bearer_methods_supported",
          content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
        },
      },
    });
  }
  app.openAPIRegistry.registerPath({
    method: "post",
    path: MCP_PATH,
    operationId: "mcp",
    tags,
    summary: "The MCP server (Streamable HTTP, stateless, JSON answers)",
    description:
      "Send `Accept: application/json, text/event-stream`. Tools: search_profiles, get_profile, compare_profiles, describe_catalog, list_changes, profile_history, compare_releases, search, fetch; " +
      "resources catalog://releases/current and catalog://profiles/{product}/{funnel}, and the MCP App views (text/html;profile=mcp-app) " +
      "of get_profile and compare_profiles under ui://readiness-catalog/. A 401 names the protected resource metadata " +
      "in `WWW-Authenticate` (`resource_metadata`). Malformed JSON-RPC is a JSON-RPC error (400, 406 or 415), not a problem; " +
      "so is a batch (a JSON array): 400 with -32600, since MCP 2025-06-18 removed batching.",
    security: bearerSecurity("read:catalog"),
    request: {
      body: {
        content: { "application/json": { schema: JsonRpc, example: { jsonrpc: "2.0", id: 1, method: "tools/list" } } },
        required: true,
      },
    },
    responses: {
      200: {
        description: "The JSON-RPC response(s).",
        headers: RATE_LIMIT_HEADERS,
        content: { "application/json": { schema: JsonRpc } },
      },
      202: { description: "Notifications and responses only: accepted, no body." },
      400: {
        description:
          "A JSON-RPC parse or request error (JSON-RPC; a batch is -32600); a query parameter, which /mcp does not take, or a `__proto__` key anywhere in the body, refused on every route (problem).",
        content: {
          "application/json": { schema: JsonRpc },
          ...problemResponses("unknown_parameter", "bad_request")[400]?.content,
        },
      },
      406: {
        description: "Accept lacks application/json or text/event-stream.",
        content: { "application/json": { schema: JsonRpc } },
      },
      415: {
        description: "Content-Type is not application/json.",
        content: { "application/json": { schema: JsonRpc } },
      },
      ...problemResponses("rate_limited"),
    },
  });
}
