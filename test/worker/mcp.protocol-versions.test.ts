/**
 * MCP protocol version negotiation on /mcp (MCP 2025-11-25, "Lifecycle" § Version negotiation): a
 * host asking for 2025-11-25 or 2025-06-18 gets the version it asked for; one asking for a version
 * the server does not know gets the latest, 2025-11-25. And the SDK client, which asks for the
 * latest, ends up on 2025-11-25 and lists the tools.
 */
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { API_ORIGIN, api, apiFetch } from "./support/api";
import { MCP_HEADERS } from "./support/mcp";

async function initialize(protocolVersion: string) {
  const res = await api("/mcp", {
    method: "POST",
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "host", version: "1" } },
    }),
  });
  expect(res.status).toBe(200);
  return (await res.json<{ result: { protocolVersion: string } }>()).result.protocolVersion;
}

describe("protocol versions on /mcp", () => {
  it.each(["2025-11-25", "2025-06-18"])("negotiates %s when a host asks for it", async (version) => {
    expect(await initialize(version)).toBe(version);
  });

  it("answers the latest, 2025-11-25, to a version it does not know", async () => {
    expect(await initialize("2099-01-01")).toBe("2025-11-25");
  });

  it("gives the SDK client (which asks for the latest) 2025-11-25, and lists the tools", async () => {
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", API_ORIGIN), {
      fetch: (input, init) => apiFetch(new Request(input, init)),
    });
    const client = new Client({ name: "host", version: "1" });
    await client.connect(transport);
    expect(transport.protocolVersion).toBe("2025-11-25");
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});
