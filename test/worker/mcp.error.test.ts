/**
 * Bad input to the MCP tools is a tool error (`isError: true`) a model can act on, naming the
 * argument and what it allows; never a protocol error or a 500. Malformed JSON-RPC is the
 * transport's JSON-RPC error, never a 500 either.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api";
import { MCP_HEADERS, mcpClient } from "./support/mcp";
import { publish, testRelease } from "./support/releases";

const generated = testRelease("generated");
/** Publishing the generated release takes seconds on this shared machine. */
const SETUP_TIMEOUT = 60_000;

const CASES: [string, Record<string, unknown>, RegExp][] = [
  ["search_profiles", { grade: ["Z"] }, /grade/],
  ["search_profiles", { product: ["Not A Key"] }, /invalid_parameter: product: "Not A Key" is not a key/],
  ["search_profiles", { colour: "red" }, /colour/],
  ["search_profiles", { limit: 0 }, /limit/],
  ["search_profiles", { limit: 101 }, /limit/],
  ["search_profiles", { cursor: "garbage" }, /invalid_cursor|cursor/],
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
    await publish(generated);
    client = await mcpClient();
  }, SETUP_TIMEOUT);
  afterAll(() => client.close());

  for (const [name, args, message] of CASES) {
    it(`${name} ${JSON.stringify(args)} is a tool error matching ${message}`, async () => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      const text = (result.content as { type: string; text: string }[])[0]!.text;
      expect(text).toMatch(message);
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
    // An empty batch holds no request, so the transport accepts it with nothing to answer (202).
    expect(answers.map((res) => res.status)).toEqual([400, 400, 202, 406, 415]);
    const get = await api("/mcp");
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toContain("POST");
  });
});
