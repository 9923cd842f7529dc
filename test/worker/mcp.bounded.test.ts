/**
 * Bounded output (docs/mcp.md, "Bounded output"): whatever the arguments, one tool result carries
 * at most 80,000 characters of text across its content and structured content. Asked with the
 * largest arguments on the test catalog, the list tools clamp their page and continue right after
 * it by next_cursor; search_profiles and compare_profiles answer summaries unless asked for full
 * profiles.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { api } from "./support/api";
import { mcpClient } from "./support/mcp";
import { oracleProfiles } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

const MAX_CHARACTERS = 80_000;
const base = testRelease("base");
const generated = testRelease("generated");
const profiles = oracleProfiles(generated).map((p) => p.profile);

interface ListAnswer {
  data: { agent_readiness_profile_id?: string; profile?: { agent_readiness_profile_id: string } }[];
  has_more: boolean;
  next_cursor: string | null;
}

/** The characters of text a result carries, counted as the bound counts them. */
function characters(result: { content?: unknown; structuredContent?: unknown }): number {
  const texts = (result.content as { type: string; text?: string }[]).map((item) => item.text?.length ?? 0);
  return texts.reduce((sum, n) => sum + n, JSON.stringify(result.structuredContent ?? null).length);
}

const idOf = (entry: ListAnswer["data"][number]) =>
  entry.agent_readiness_profile_id ?? expectDefined(entry.profile, "a full entry's profile").agent_readiness_profile_id;

describe("MCP: one tool result is at most 80,000 characters", () => {
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(characters(result as { content?: unknown; structuredContent?: unknown }), name).toBeLessThanOrEqual(
      MAX_CHARACTERS,
    );
    return result;
  };
  beforeAll(async () => {
    await publish(base);
    await publish(generated);
    client = await mcpClient();
  }, 90_000);
  afterAll(() => client.close());

  it("search_profiles with 100 full profiles clamps its page and continues right after it", async () => {
    const rest = await (await api("/v1/profiles?limit=100")).json<{ data: { agent_readiness_profile_id: string }[] }>();
    const args = { limit: 100, detail: "full" };
    const first = (await call("search_profiles", args)).structuredContent as unknown as ListAnswer;
    expect(first.data.length).toBeGreaterThan(0);
    expect(first.data.length).toBeLessThan(100);
    expect(first.has_more).toBe(true);
    const second = (await call("search_profiles", { ...args, cursor: first.next_cursor }))
      .structuredContent as unknown as ListAnswer;
    const shown = [...first.data, ...second.data].map(idOf);
    expect(shown).toEqual(rest.data.slice(0, shown.length).map((p) => p.agent_readiness_profile_id));
  });

  it("search_profiles answers summaries by default, many more of them than full profiles", async () => {
    const full = (await call("search_profiles", { limit: 100, detail: "full" }))
      .structuredContent as unknown as ListAnswer;
    const answer = (await call("search_profiles", { limit: 100 })).structuredContent as unknown as ListAnswer;
    expect(answer.data.length).toBeGreaterThan(2 * full.data.length);
    expect(Object.keys(expectDefined(answer.data[0], "a summary")).sort()).toEqual([
      "agent_readiness_profile_id",
      "funnel",
      "grade",
      "href",
      "overall_outcome",
      "primary_finding",
      "product",
      "sha256",
      "stages",
    ]);
  });

  it("list_changes with its largest page clamps it and pages on to every change", async () => {
    const args = { since: base.manifest.release_id, limit: 1000 };
    const ids: string[] = [];
    let cursor: string | null = null;
    let count = 0;
    let pages = 0;
    do {
      const result = await call("list_changes", { ...args, ...(cursor ? { cursor } : {}) });
      const answer = result.structuredContent as unknown as ListAnswer & { count: number };
      ids.push(...answer.data.map(idOf));
      count = answer.count;
      cursor = answer.next_cursor;
      pages++;
    } while (cursor);
    expect(count).toBeGreaterThan(1000 / pages);
    expect(pages).toBeGreaterThan(1);
    expect(ids).toHaveLength(count);
  });

  it("compare_profiles of 10 full profiles stays within the bound", async () => {
    const scopes = profiles.slice(0, 10).map((p) => ({ product: p.scope.product.key, funnel: p.scope.funnel.key }));
    const result = await call("compare_profiles", { profiles: scopes, detail: "full" });
    const text = (result.content as { text: string }[])[0]?.text ?? "";
    if (result.isError) expect(text).toMatch(/^result_too_large: .*detail "summary"/);
    else expect((result.structuredContent as { profiles: unknown[] }).profiles).toHaveLength(10);
    await call("compare_profiles", { profiles: scopes });
  });

  it("get_profile of the largest profile stays within the bound", async () => {
    const largest = profiles.reduce((a, b) => (JSON.stringify(a).length >= JSON.stringify(b).length ? a : b));
    const result = await call("get_profile", { id: largest.agent_readiness_profile_id });
    expect(result.isError).toBeFalsy();
  });
});
