/**
 * The MCP server with the official SDK's client (Client + StreamableHTTPClientTransport) against
 * the worker, on one published release: every tool listed with its schemas and annotations, each
 * tool's answer, and answers that agree with the REST routes for the same release (happy paths);
 * bad input to the tools is a tool error (`isError: true`) a model can act on, naming the
 * argument and what it allows, never a protocol error or a 500, and malformed JSON-RPC is the
 * transport's JSON-RPC error, never a 500 either (bad input).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { api, API_ORIGIN, apiWithBindings } from "./support/api";
import { TOOL_NAMES } from "../../src/worker/mcp/tool-names";
import { MCP_HEADERS, mcpClient } from "./support/mcp";
import { oracleProfiles } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

const generated = testRelease("generated");
/** Publishing the generated release takes seconds on this shared machine. */
const SETUP_TIMEOUT = 60_000;
const releaseId = generated.manifest.release_id;
const profiles = oracleProfiles(generated).map((p) => p.profile);

beforeAll(() => publish(generated), SETUP_TIMEOUT);

interface Compact {
  agent_readiness_profile_id: string;
  product: { key: string };
  funnel: { key: string };
  sha256: string;
  href: string;
  stages: Record<string, string>;
}

describe("MCP server: happy paths", () => {
  let client: Client;
  beforeAll(async () => {
    client = await mcpClient();
  });
  afterAll(() => client.close());

  it("lists the seven read-only tools with input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
  });

  it("search_profiles answers what GET /v1/profiles answers, page by page", async () => {
    const args = { grade: ["A", "B+"], sort: "-grade", limit: 7, facets: ["grade"] };
    const rest = await (
      await api(`/v1/releases/${releaseId}/profiles?grade=A,B%2B&sort=-grade&limit=7&facets=grade`)
    ).json<{
      count: number;
      data: { agent_readiness_profile_id: string }[];
      facets: Record<string, Record<string, number>>;
      next: string | null;
    }>();
    const result = await client.callTool({ name: "search_profiles", arguments: args });
    expect(result.isError).toBeFalsy();
    const found = result.structuredContent as {
      release_id: string;
      count: number;
      object: "list";
      data: Compact[];
      has_more: boolean;
      next: string | null;
      next_cursor: string | null;
      facets: Record<string, Record<string, number>>;
    };
    expect(found.release_id).toBe(releaseId);
    expect(found.count).toBe(rest.count);
    expect(found.facets).toEqual(rest.facets);
    expect(found.data.map((p) => p.agent_readiness_profile_id)).toEqual(
      rest.data.map((p) => p.agent_readiness_profile_id),
    );
    // The cursor pages on exactly as the route's next URL.
    expect(found.next_cursor).not.toBeNull();
    expect(rest.next).toContain(`cursor=${found.next_cursor}`);
    // `next` is the route's pinned URL of that page, absolute: the same page by REST.
    expect(found).toMatchObject({ object: "list", has_more: true });
    const restByNext = await (await api(expectDefined(found.next, "the tool's next URL"))).json<{
      data: { agent_readiness_profile_id: string }[];
    }>();
    const second = await client.callTool({
      name: "search_profiles",
      arguments: { ...args, cursor: found.next_cursor },
    });
    const restSecond = await (await api(expectDefined(rest.next, "the route's next URL"))).json<{
      data: { agent_readiness_profile_id: string }[];
    }>();
    expect((second.structuredContent as { data: Compact[] }).data.map((p) => p.agent_readiness_profile_id)).toEqual(
      restSecond.data.map((p) => p.agent_readiness_profile_id),
    );
    expect(restByNext.data).toEqual(restSecond.data);
  });

  it("get_profile is the REST profile, with the sha256 the route's ETag names", async () => {
    const first = expectDefined(profiles[3], "a fourth profile in the release");
    const { product, funnel } = first.scope;
    const res = await api(`/v1/profiles/${product.key}/${funnel.key}`);
    const result = await client.callTool({
      name: "get_profile",
      arguments: { product: product.key, funnel: funnel.key },
    });
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as { release_id: string; sha256: string; href: string; profile: unknown };
    expect(answer.profile).toEqual(await res.json());
    expect(`"${answer.sha256}"`).toBe(res.headers.get("ETag"));
    expect(answer.release_id).toBe(releaseId);
    expect(answer.href).toBe(`${API_ORIGIN}/v1/releases/${releaseId}/profiles/${product.key}/${funnel.key}`);
    const byId = await client.callTool({ name: "get_profile", arguments: { id: first.agent_readiness_profile_id } });
    expect((byId.structuredContent as { sha256: string }).sha256).toBe(answer.sha256);
  });

  it("compare_profiles names the stages where they differ", async () => {
    const [a, b] = pairDifferingIn("pay");
    const result = await client.callTool({
      name: "compare_profiles",
      arguments: { profiles: [a, b].map((p) => ({ product: p.scope.product.key, funnel: p.scope.funnel.key })) },
    });
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as {
      stages: { stage: string; same: boolean }[];
      differences: string[];
    };
    expect(answer.stages.find((s) => s.stage === "pay")).toMatchObject({ same: false });
    expect(answer.differences.some((line) => line.startsWith("Pay:"))).toBe(true);
  });

  it("describe_catalog gives the release, its size and the grade counts of the facets", async () => {
    const result = await client.callTool({ name: "describe_catalog", arguments: {} });
    const answer = result.structuredContent as { release_id: string; profile_count: number; grades: object };
    expect(answer.release_id).toBe(releaseId);
    expect(answer.profile_count).toBe(profiles.length);
    const rest = await (await api("/v1/profiles?facets=grade&limit=1")).json<{ facets: { grade: object } }>();
    expect(answer.grades).toEqual(rest.facets.grade);
  });

  it("serves the current release and a profile as resources", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    const catalogTemplates = resourceTemplates.filter((t) => t.uriTemplate.startsWith("catalog://"));
    expect(catalogTemplates.map((t) => t.uriTemplate)).toEqual(["catalog://profiles/{product}/{funnel}"]);
    const current = await client.readResource({ uri: "catalog://releases/current" });
    expect(JSON.parse((current.contents[0] as { text: string }).text).release_id).toBe(releaseId);
    const p = expectDefined(profiles[0], "a profile in the release");
    const profile = await client.readResource({
      uri: `catalog://profiles/${p.scope.product.key}/${p.scope.funnel.key}`,
    });
    expect(JSON.parse((profile.contents[0] as { text: string }).text)).toEqual(p);
  });
});

function pairDifferingIn(stage: string) {
  const stateAt = (p: (typeof profiles)[number]) => {
    const found = p.stages.find((s) => s.stage === stage);
    return expectDefined(found, `a ${stage} stage in every profile`).public_state;
  };
  const a = profiles.find((p) => stateAt(p) === "ready");
  const b = profiles.find((p) => stateAt(p) !== "ready");
  return [
    expectDefined(a, `a profile ready at ${stage}`),
    expectDefined(b, `a profile not ready at ${stage}`),
  ] as const;
}

const CASES: [string, Record<string, unknown>, RegExp][] = [
  ["search_profiles", { grade: ["Z"] }, /grade/],
  ["search_profiles", { product: ["Not A Key"] }, /invalid_parameter: product: "Not A Key" is not a key/],
  // One array item is one value: a comma in it would be read as two by the route's comma-separated list.
  ["search_profiles", { product: ["acme,globex"] }, /^invalid_parameter: product: "acme,globex" holds a comma/],
  ["search_profiles", { colour: "red" }, /colour/],
  ["search_profiles", { limit: 0 }, /limit/],
  ["search_profiles", { limit: 101 }, /limit/],
  ["search_profiles", { cursor: "garbage" }, /^invalid_cursor: cursor: .*`next_cursor`/],
  ["search_profiles", { tested_after: "yesterday" }, /tested_after: must be an ISO 8601 UTC instant/],
  ["search_profiles", { q: "!!!" }, /q: must contain a word/],
  ["search_profiles", { release_id: "sha256:nope" }, /release_id/],
  ["search_profiles", { release_id: `sha256:${"0".repeat(64)}` }, /release_not_found/],
  ["get_profile", {}, /send product and funnel together/],
  ["get_profile", { product: "acme" }, /send product and funnel together/],
  ["get_profile", { product: "a", funnel: "b", id: "arp_aaaaaaaaaaaaaaaaaaaaaaaaaa" }, /not both/],
  ["get_profile", { product: "no-such-product", funnel: "checkout" }, /profile_not_found: .*search_profiles/],
  ["get_profile", { id: "arp_short" }, /id/],
  ["compare_profiles", { profiles: [{ product: "a", funnel: "b" }] }, /at least 2/],
  ["compare_profiles", { profiles: [] }, /at least 2/],
  ["describe_catalog", { extra: true }, /extra/],
  ["no_such_tool", {}, /no_such_tool not found/],
];

describe("MCP tools: bad input", () => {
  let client: Client;
  beforeAll(async () => {
    client = await mcpClient();
  });
  afterAll(() => client.close());

  for (const [name, args, message] of CASES) {
    it(`${name} ${JSON.stringify(args)} is a tool error matching ${message}`, async () => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      expect((result.content as { type: string; text: string }[]).at(0)?.text).toMatch(message);
    });
  }

  it("reads a missing profile resource as a JSON-RPC error, not a 500", async () => {
    await expect(client.readResource({ uri: "catalog://profiles/no-such-product/checkout" })).rejects.toThrow(
      /profile_not_found/,
    );
    await expect(client.readResource({ uri: "catalog://profiles/Bad%20Key/x" })).rejects.toThrow(/lowercase words/);
  });

  it("answers malformed JSON-RPC with JSON-RPC errors, never 5xx", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      api("/mcp", {
        method: "POST",
        headers: { ...MCP_HEADERS, ...headers },
        body,
      });
    const answers = await Promise.all([
      post("{not json"),
      post('{"jsonrpc":"2.0"}'),
      post("[]"),
      post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { Accept: "text/html" }),
      post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { "Content-Type": "text/plain" }),
    ]);
    // Even an empty batch is refused (400, -32600): batches are not part of MCP (mcp.batch.test.ts).
    expect(answers.map((res) => res.status)).toEqual([400, 400, 400, 406, 415]);
    const get = await api("/mcp");
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toContain("POST");
  });

  it("answers a storage failure as a tool error with a reference, not the failure's text or a 500", async () => {
    const outage = () => {
      throw new Error("simulated R2 outage at 10.0.0.7");
    };
    const failing = { ...env, RELEASES: { get: outage, head: outage, list: outage } } as unknown as Env;
    const call = {
      name: "get_profile",
      arguments: { id: expectDefined(profiles[0], "a profile").agent_readiness_profile_id },
    };
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await apiWithBindings(failing, "/mcp", {
        method: "POST",
        headers: MCP_HEADERS,
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: call }),
      });
      expect(res.status).toBe(200);
      const { result } = await res.json<{ result: { isError: boolean; content: { text: string }[] } }>();
      expect(result.isError).toBe(true);
      const { text } = expectDefined(result.content[0], "the tool error's content");
      const reference = /quote (mcp_[0-9a-f-]{36})/.exec(text)?.[1];
      expect(text).toContain("our fault, not your input");
      expect(text).not.toContain("simulated R2 outage");
      const log = logged.mock.calls.flat().join("\n");
      expect(log).toContain(`"reference":"${reference}"`);
      expect(log).toContain("simulated R2 outage");
    } finally {
      logged.mockRestore();
    }
  });
});
