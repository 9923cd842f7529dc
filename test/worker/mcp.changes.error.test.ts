/**
 * `list_changes` refuses, with the official SDK client: every refusal of the route
 * (GET /v1/releases/{id}/changes) as a tool error a model can act on, in the MCP door's words,
 * never a protocol error or a 500. Its answers: mcp.changes.happy.test.ts.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClient } from "./support/mcp";
import { publish, testRelease } from "./support/releases";

const base = testRelease("base");
const edited = testRelease("edited");
/** Never published here: a release the deployment does not keep. */
const unpublished = testRelease("wide");

const textOf = (result: object) => ((result as { content?: { text: string }[] }).content ?? [])[0]?.text ?? "";

describe("MCP list_changes refuses", () => {
  let client: Client;
  beforeAll(async () => {
    await publish(base);
    await publish(edited);
    client = await mcpClient();
  }, 60_000);
  afterAll(() => client.close());

  const refusals: [string, () => Record<string, unknown>, RegExp][] = [
    ["no since", () => ({}), /since/],
    ["a malformed since", () => ({ since: "yesterday" }), /since/],
    [
      "a since no longer kept",
      () => ({ since: unpublished.manifest.release_id }),
      new RegExp(`release_gone: .*the oldest kept release is ${base.manifest.release_id}`),
    ],
    [
      "an unknown release_id",
      () => ({ since: base.manifest.release_id, release_id: `sha256:${"0".repeat(64)}` }),
      /release_not_found/,
    ],
    ["limit 0", () => ({ since: base.manifest.release_id, limit: 0 }), /limit/],
    ["limit over 1000", () => ({ since: base.manifest.release_id, limit: 1001 }), /limit/],
    ["a malformed cursor", () => ({ since: base.manifest.release_id, cursor: "abc" }), /cursor/],
    [
      "a cursor inside a line",
      () => ({ since: base.manifest.release_id, cursor: "3" }),
      /invalid_cursor: cursor: .*next_cursor/,
    ],
    [
      "a hand-made offset",
      () => ({ since: base.manifest.release_id, cursor: "999999" }),
      /invalid_cursor: cursor: .*`next_cursor`/,
    ],
    ["an unknown argument", () => ({ since: base.manifest.release_id, after: "1" }), /after/],
  ];
  for (const [what, args, message] of refusals) {
    it(`refuses ${what} with a tool error matching ${message}`, async () => {
      const result = await client.callTool({ name: "list_changes", arguments: args() });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(message);
    });
  }
});
