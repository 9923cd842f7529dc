/**
 * What the docs say of the MCP server matches the code: the README and the OpenAPI description of
 * /mcp name every tool the server registers (src/worker/mcp), docs/mcp.md names the protocol
 * version that clients of the SDK negotiate, and its host configurations name the server's path,
 * the one header it reads a key from and its metadata documents' URLs.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { MCP_PATH, PROTECTED_RESOURCE_METADATA_PATH } from "../../src/worker/mcp/resource-id";
import { TOOL_NAMES } from "../../src/worker/mcp/tool-names";

const REPO = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(REPO, file), "utf8");
const MCP_DIR = "src/worker/mcp";
/** The one list the server registers from (read-tool.ts takes no other name; mcp.hosts.test.ts compares tools/list to it). */
const TOOLS = [...TOOL_NAMES];

/** The tool names a sentence lists in backticks or plain, in order. */
const toolsIn = (sentence: string) =>
  [...sentence.matchAll(/\b([a-z_]+)\b/g)].map((match) => match[1]).filter((word) => TOOLS.includes(word as never));

describe("the MCP server's docs", () => {
  it("the README names every tool the server registers", () => {
    expect(TOOLS.length).toBeGreaterThan(3);
    const sentence = /is an MCP server \(tools ([^;]+);/.exec(read("README.md"))?.[1] ?? "";
    expect(toolsIn(sentence).sort()).toEqual([...TOOLS].sort());
  });

  it("so does the OpenAPI description of /mcp", () => {
    const sentence = /Tools: ([^;]+);/.exec(read(`${MCP_DIR}/openapi.ts`))?.[1] ?? "";
    expect(toolsIn(sentence).sort()).toEqual([...TOOLS].sort());
  });

  it(`docs/mcp.md names the protocol version the SDK negotiates (${LATEST_PROTOCOL_VERSION})`, () => {
    const transport = read("docs/mcp.md")
      .split("\n")
      .find((line) => line.startsWith("| Transport |"));
    expect(transport).toContain(`MCP ${LATEST_PROTOCOL_VERSION}`);
  });

  it("the host configurations point at npm start's /mcp with the Authorization header the server reads", () => {
    const doc = read("docs/mcp.md");
    const section = doc.slice(doc.indexOf("## Add it to Claude, ChatGPT, VS Code, Cursor"), doc.indexOf("## Tools"));
    const configs = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map(
      (match) => JSON.parse(match[1] ?? "") as Record<string, Record<string, { url: string; headers: object }>>,
    );
    const servers = configs.flatMap((config) => Object.values(config.mcpServers ?? config.servers ?? {}));
    expect(servers).toHaveLength(3);
    for (const server of servers) {
      expect(server.url).toBe(`http://localhost:8787${MCP_PATH}`);
      expect(Object.keys(server.headers)).toEqual(["Authorization"]);
      expect(Object.values(server.headers)[0]).toMatch(/^Bearer \$\{/);
    }
    expect(section).toContain(`\`<origin>${PROTECTED_RESOURCE_METADATA_PATH}\``);
    // RFC 8414 §3: the authorization server's metadata is at this well-known path of its origin.
    expect(section).toContain("`<origin>/.well-known/oauth-authorization-server`");
  });
});
