/**
 * The catalog's MCP server (docs/mcp.md), built per request: stateless Streamable HTTP with the
 * official SDK's web-standard transport, JSON answers (no SSE stream, no session), so any isolate
 * at any location answers any request.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { registerAppResources } from "./app-resources";
import type { McpContext } from "./catalog-reads";
import { registerChangesTool } from "./changes-tool";
import { registerDescribeTool } from "./describe-tool";
import { registerHistoryTools } from "./history-tools";
import { registerProfileTools } from "./profile-tools";
import { registerResources } from "./resources";
import { registerSearchFetchTools } from "./search-fetch-tools";
import { registerSearchTool } from "./search-tool";
import { MAX_BODY_BYTES } from "../http/body-limit";
import { FAVICON_SVG } from "../../common/web/favicon";

/**
 * Who the server is, as hosts show it (MCP 2025-11-25 `Implementation`: `title` and `icons`): the
 * site's own icon inline, so a host shows it without fetching another origin.
 */
const SERVER_INFO = {
  name: "readiness-catalog",
  title: "Readiness Catalog",
  version: "1.0.0",
  icons: [
    {
      src: `data:image/svg+xml;base64,${new TextEncoder().encode(FAVICON_SVG).toBase64()}`,
      mimeType: "image/svg+xml",
      sizes: ["any"],
    },
  ],
};

const INSTRUCTIONS =
  "The Readiness Catalog rates how ready API products are for automated agents, per product and funnel, across five stages " +
  "(evaluate, sign_up, pay, provision, operate). Start with describe_catalog; find products with search_profiles; read one " +
  "with get_profile; compare candidates with compare_profiles; see what changed since a release you know with list_changes; follow one profile over time with profile_history and " +
  "count how the catalog moved between two releases with compare_releases. search and fetch are the same data for connectors that ask for those two tools. Cite a profile by release_id and sha256.";

export function catalogServer(ctx: McpContext): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  registerDescribeTool(server, ctx);
  registerSearchTool(server, ctx);
  registerProfileTools(server, ctx);
  registerChangesTool(server, ctx);
  registerHistoryTools(server, ctx);
  registerSearchFetchTools(server, ctx);
  registerResources(server, ctx);
  registerAppResources(server, ctx);
  return server;
}

/** One JSON-RPC request (or batch) answered by a fresh server and stateless transport. */
export async function answerMcp(request: Request, ctx: McpContext): Promise<Response> {
  const server = catalogServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
