/** One way to reach the MCP server in worker tests: the official SDK client, or one raw JSON-RPC POST. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { API_ORIGIN, apiFetch } from "./api";

/** The SDK client on /mcp, with the shared test key (support/api.ts). */
export async function mcpClient(): Promise<Client> {
  const client = new Client({ name: "catalog-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", API_ORIGIN), {
      fetch: (input, init) => apiFetch(new Request(input, init)),
    }),
  );
  return client;
}

/** An `initialize` request, as a host's first POST. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

export const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
