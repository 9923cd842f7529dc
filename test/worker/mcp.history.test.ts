/**
 * `profile_history` and `compare_releases` with the official SDK client: the same answers as
 * GET /v1/profiles/{…}/history and GET /v1/releases/{id}/changes/summary, and refusals as tool
 * errors a model can act on.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { rollbackRelease } from "../../src/node/catalog/publish";
import { api } from "./support/api";
import { changesBetween, wholeHistory } from "./support/history";
import { mcpClient } from "./support/mcp";
import { publish, testRelease, workerStorage } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const base = testRelease("base");
const regraded = testRelease("regraded");
const baseId = base.manifest.release_id;
const regradedId = regraded.manifest.release_id;

const textOf = (result: object) => ((result as { content?: { text: string }[] }).content ?? [])[0]?.text ?? "";

describe("MCP history tools", () => {
  let client: Client;
  beforeAll(async () => {
    await resetStorage();
    await publish(base);
    await publish(regraded);
    await rollbackRelease(workerStorage(), baseId);
    client = await mcpClient();
  }, 60_000);
  afterAll(() => client.close());

  it("are listed read-only with output schemas", async () => {
    const { tools } = await client.listTools();
    for (const name of ["profile_history", "compare_releases"]) {
      const tool = expectDefined(
        tools.find((t) => t.name === name),
        name,
      );
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.outputSchema?.type).toBe("object");
    }
  });

  it("profile_history answers the entries the REST route lists, page by page, by scope and by id", async () => {
    const changed = expectDefined(
      (await changesBetween(regradedId, baseId)).find((change) => change.change === "changed"),
      "a regraded profile",
    );
    const rest = await wholeHistory(`/v1/profiles/${changed.product_key}/${changed.funnel_key}/history`);
    expect(rest.map((entry) => entry.fields_changed)).toEqual([["grade"], ["grade"], []]);
    for (const ref of [
      { product: changed.product_key, funnel: changed.funnel_key },
      { id: changed.agent_readiness_profile_id },
    ]) {
      const entries: unknown[] = [];
      let cursor: string | null = null;
      do {
        const args: Record<string, unknown> = { ...ref, limit: 2, ...(cursor ? { cursor } : {}) };
        const result = await client.callTool({ name: "profile_history", arguments: args });
        expect(result.isError, textOf(result)).toBeFalsy();
        const answer = result.structuredContent as { data: unknown[]; next: string | null; next_cursor: string | null };
        entries.push(...answer.data);
        // `next` is the history route's own next page, carrying the same cursor.
        if (answer.next) expect((await api(answer.next)).status).toBe(200);
        expect(answer.next === null).toBe(answer.next_cursor === null);
        cursor = answer.next_cursor;
      } while (cursor);
      expect(entries).toEqual(rest);
    }
  });

  it("compare_releases answers what the summary route answers, the current release by default", async () => {
    const rest = await (await api(`/v1/releases/${regradedId}/changes/summary?since=${baseId}`)).json();
    const result = await client.callTool({
      name: "compare_releases",
      arguments: { release_id: regradedId, since: baseId },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toEqual(rest);
    // The rollback made base current again: since regraded, the grades went back.
    const back = await client.callTool({ name: "compare_releases", arguments: { since: regradedId } });
    expect(back.structuredContent).toEqual(
      await (await api(`/v1/releases/${baseId}/changes/summary?since=${regradedId}`)).json(),
    );
  });

  it("refuses what the routes refuse, as tool errors naming the problem", async () => {
    const never = await client.callTool({ name: "profile_history", arguments: { product: "never-api", funnel: "x" } });
    expect(never.isError).toBe(true);
    expect(textOf(never)).toMatch(/^profile_not_found: /);
    const both = await client.callTool({ name: "profile_history", arguments: { product: "a", id: "arp_x" } });
    expect(both.isError).toBe(true);
    const cursor = await client.callTool({
      name: "profile_history",
      arguments: { id: "arp_0000000000000000000000zzzz", cursor: "forged.tag" },
    });
    expect(textOf(cursor)).toMatch(/^invalid_cursor: /);
    const unknown = `sha256:${"ab".repeat(32)}`;
    const since = await client.callTool({ name: "compare_releases", arguments: { since: unknown } });
    expect(since.isError).toBe(true);
    expect(textOf(since)).toContain(`release_not_found: since ${unknown}`);
  });
});
