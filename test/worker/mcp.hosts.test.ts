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
import { APP_VIEW_TEMPLATE } from "../../src/worker/mcp/app-uris";
import { TOOL_NAMES, type ToolName } from "../../src/worker/mcp/tool-names";
import { api } from "./support/api";
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
  search: { query: expectDefined(profiles[0], "a profile").scope.product.key },
  fetch: { id: expectDefined(profiles[0], "a profile").agent_readiness_profile_id },
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

  it("answers search and fetch as OpenAI's connector contract defines them, with get_profile's data", async () => {
    const profile = expectDefined(profiles[0], "a profile");
    const textItem = (result: object) => {
      const { content, structuredContent } = result as {
        content: { type: string; text: string }[];
        structuredContent: unknown;
      };
      expect(content).toHaveLength(1);
      expect(content[0]?.type).toBe("text");
      const object = JSON.parse(expectDefined(content[0], "the one text item").text);
      expect(object).toEqual(structuredContent);
      return object;
    };
    const searched = textItem(await client.callTool({ name: "search", arguments: REPRESENTATIVE.search }));
    const hit = expectDefined(
      (searched.results as { id: string; title: string; url: string }[]).find(
        (r) => r.id === profile.agent_readiness_profile_id,
      ),
      "the profile among the results",
    );
    expect(Object.keys(hit).sort()).toEqual(["id", "title", "url"]);
    const fetched = textItem(await client.callTool({ name: "fetch", arguments: { id: hit.id } }));
    expect(Object.keys(fetched).sort()).toEqual(["id", "metadata", "text", "title", "url"]);
    expect(fetched.url).toBe(hit.url);
    const rest = await api(fetched.url);
    expect(fetched.text).toBe(await rest.text());
    expect(`"${fetched.metadata.sha256}"`).toBe(rest.headers.get("ETag"));
    const got = (await client.callTool({ name: "get_profile", arguments: { id: hit.id } })).structuredContent as {
      href: string;
      sha256: string;
      profile: unknown;
    };
    expect([got.href, got.sha256, got.profile]).toEqual([
      fetched.url,
      fetched.metadata.sha256,
      JSON.parse(fetched.text),
    ]);
  });

  it("refuses a fetch of an unknown id and an empty search query as tool errors", async () => {
    const missing = await client.callTool({ name: "fetch", arguments: { id: `arp_${"z".repeat(26)}` } });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain("profile_not_found");
    const empty = await client.callTool({ name: "search", arguments: { query: "!!" } });
    expect(empty.isError).toBe(true);
    expect(JSON.stringify(empty.content)).toContain("invalid_parameter: query");
  });

  it.each(["catalog://profiles/{product}/{funnel}", APP_VIEW_TEMPLATE.profile])(
    "completes the product and funnel of %s by prefix over the current release",
    async (uri) => {
      const ref = { type: "ref/resource" as const, uri };
      const complete = async (name: string, value: string, context?: Record<string, string>) =>
        (
          await client.complete({
            ref,
            argument: { name, value },
            ...(context ? { context: { arguments: context } } : {}),
          })
        ).completion.values;
      const products = [...new Set(profiles.map((p) => p.scope.product.key))].sort();
      const prefix = expectDefined(products[0], "a product key").slice(0, 1);
      const expected = products.filter((key) => key.startsWith(prefix)).slice(0, 100);
      expect(await complete("product", prefix)).toEqual(expected);
      expect((await complete("product", "")).length).toBe(Math.min(100, products.length));
      const product = expectDefined(products[0], "a product key");
      const funnels = profiles.filter((p) => p.scope.product.key === product).map((p) => p.scope.funnel.key);
      expect(await complete("funnel", "", { product })).toEqual([...new Set(funnels)].sort());
      expect(await complete("product", "NO SUCH")).toEqual([]);
      expect(await complete("product", "zzzzzz-no-such")).toEqual([]);
    },
  );
});
