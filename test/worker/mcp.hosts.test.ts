/**
 * What real hosts require of the MCP server (docs/mcp.md, "What hosts require"), with the official
 * SDK client: every tool has a title, the read-only annotations, an output schema and a name of at
 * most 64 characters; a representative call of each tool answers structured content that
 * validates against that output schema with an independent validator (ajv); the server names
 * itself with a title and an icon.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { TOOL_NAMES, type ToolName } from "../../src/worker/mcp/tool-names";
import { mcpClient } from "./support/mcp";
import { oracleProfiles } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

const generated = testRelease("generated");
const releaseId = generated.manifest.release_id;
const profiles = oracleProfiles(generated).map((p) => p.profile);
const scopeOf = (i: number) => {
  const { product, funnel } = expectDefined(profiles[i], `profile ${i} of the release`).scope;
  return { product: product.key, funnel: funnel.key };
};

/** One ordinary call of each tool, with the arguments a model would send. */
const REPRESENTATIVE: Record<ToolName, Record<string, unknown>> = {
  describe_catalog: {},
  search_profiles: { grade: ["A", "B+"], sort: "-grade", limit: 5, facets: ["grade"] },
  get_profile: scopeOf(0),
  compare_profiles: { profiles: [scopeOf(0), scopeOf(1), scopeOf(2)] },
  list_changes: { since: releaseId },
  profile_history: scopeOf(0),
  compare_releases: { since: releaseId },
};

describe("MCP: what hosts require", () => {
  let client: Client;
  beforeAll(async () => {
    await publish(generated);
    client = await mcpClient();
  }, 60_000);
  afterAll(() => client.close());

  it("names itself with a title and an inline icon", () => {
    const server = expectDefined(client.getServerVersion(), "the server's implementation info");
    expect(server.title).toBe("Readiness Catalog");
    const [icon] = server.icons ?? [];
    expect(icon?.mimeType).toBe("image/svg+xml");
    expect(icon?.src).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it("gives every tool a title, the read-only annotations, an output schema and a short name", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.name.length, tool.name).toBeLessThanOrEqual(64);
      expect(tool.title, tool.name).toMatch(/\w/);
      expect(tool.annotations, tool.name).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
  });

  it("answers structured content that validates against each tool's output schema", async () => {
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const args = expectDefined(REPRESENTATIVE[tool.name as ToolName], tool.name);
      const result = await client.callTool({ name: tool.name, arguments: args });
      expect(result.isError, `${tool.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      const validate = ajv.compile(expectDefined(tool.outputSchema, tool.name));
      expect(validate(result.structuredContent), `${tool.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });
});
