/**
 * What the docs say of the MCP server matches the code: the README and the OpenAPI description of
 * /mcp name every tool the server registers (src/worker/mcp), and docs/mcp.md names the protocol
 * version that clients of the SDK negotiate.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
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
});
