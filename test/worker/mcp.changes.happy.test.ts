/**
 * `list_changes` with the official SDK client: the same changes as GET /v1/releases/{id}/changes
 * for the same pair of releases (both directions, paged), and a REST cursor taken as its own; and
 * `search_profiles` continued across a publish, in the release it started in. Its refusals:
 * mcp.changes.error.test.ts.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { api, API_ORIGIN } from "./support/api";
import { mcpClient } from "./support/mcp";
import { EDITED } from "./support/provided-releases";
import { publish, testRelease, type TestRelease } from "./support/releases";

const base = testRelease("base");
const edited = testRelease("edited");
/** Publishing two releases takes seconds on this shared machine. */
const SETUP_TIMEOUT = 60_000;

interface Change {
  change: string;
  agent_readiness_profile_id: string;
  href: string;
}

interface Answer {
  release_id: string;
  since: string;
  count: number;
  counts: { added: number; changed: number; removed: number };
  object: "list";
  data: Change[];
  has_more: boolean;
  next: string | null;
  next_cursor: string | null;
}

const textOf = (result: object) => ((result as { content?: { text: string }[] }).content ?? [])[0]?.text ?? "";

async function restChanges(release: TestRelease, since: TestRelease): Promise<Change[]> {
  const res = await api(`/v1/releases/${release.manifest.release_id}/changes?since=${since.manifest.release_id}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: Change[]; has_more: boolean };
  expect(body.has_more).toBe(false);
  return body.data;
}

describe("MCP list_changes", () => {
  let client: Client;
  beforeAll(async () => {
    await publish(base);
    await publish(edited);
    client = await mcpClient();
  }, SETUP_TIMEOUT);
  afterAll(() => client.close());

  it("is listed read-only with its schemas", async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "list_changes");
    expect(tool?.annotations?.readOnlyHint).toBe(true);
    expect(tool?.inputSchema.required).toEqual(["since"]);
    expect(tool?.outputSchema?.type).toBe("object");
  });

  it("answers, page by page, the changes GET /v1/releases/{id}/changes lists, hrefs made absolute", async () => {
    const rest = await restChanges(edited, base);
    const listed: Change[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const args: Record<string, unknown> = { since: base.manifest.release_id, limit: 2 };
      if (cursor) args.cursor = cursor;
      const result = await client.callTool({ name: "list_changes", arguments: args });
      expect(result.isError, textOf(result)).toBeFalsy();
      const answer = result.structuredContent as Answer;
      expect(answer).toMatchObject({
        release_id: edited.manifest.release_id,
        since: base.manifest.release_id,
        count: rest.length,
        counts: { added: EDITED.added, changed: EDITED.retested.length, removed: EDITED.removed.length },
      });
      expect(answer.data.length).toBeLessThanOrEqual(2);
      expect(textOf(result)).toContain(JSON.stringify(answer));
      listed.push(...answer.data);
      expect(answer.has_more).toBe(answer.next_cursor !== null);
      // `next` is the route's own next page, carrying the same cursor.
      if (answer.next_cursor) expect(answer.next).toContain(`=${answer.next_cursor}`);
      if (answer.next) expect((await api(answer.next)).status).toBe(200);
      cursor = answer.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(rest.length / 2));
    expect(listed).toEqual(rest.map((change) => ({ ...change, href: `${API_ORIGIN}${change.href}` })));
  });

  it("works in either direction, as the route does", async () => {
    const result = await client.callTool({
      name: "list_changes",
      arguments: { since: edited.manifest.release_id.slice(7), release_id: base.manifest.release_id, limit: 1000 },
    });
    const answer = result.structuredContent as Answer;
    expect(answer.counts).toEqual({
      added: EDITED.removed.length,
      changed: EDITED.retested.length,
      removed: EDITED.added,
    });
    expect(answer.data.map((c) => c.agent_readiness_profile_id)).toEqual(
      (await restChanges(base, edited)).map((c) => c.agent_readiness_profile_id),
    );
  });

  it("since the release itself: nothing changed", async () => {
    const result = await client.callTool({ name: "list_changes", arguments: { since: edited.manifest.release_id } });
    expect(result.structuredContent).toMatchObject({
      object: "list",
      count: 0,
      data: [],
      has_more: false,
      next: null,
      next_cursor: null,
    });
  });
  it("takes the REST list's cursor as its own, and refuses it for another since", async () => {
    const path = `/v1/releases/${edited.manifest.release_id}/changes?since=${base.manifest.release_id}&limit=1`;
    const rest = (await (await api(path)).json()) as { next: string };
    const after = expectDefined(new URL(rest.next, API_ORIGIN).searchParams.get("cursor"), "cursor in next");
    const second = (await (await api(rest.next)).json()) as { data: Change[] };
    const same = await client.callTool({
      name: "list_changes",
      arguments: { since: base.manifest.release_id, limit: 1, cursor: after },
    });
    expect((same.structuredContent as Answer).data).toEqual(
      second.data.map((change) => ({ ...change, href: `${API_ORIGIN}${change.href}` })),
    );
    const reversed = await client.callTool({
      name: "list_changes",
      arguments: { since: edited.manifest.release_id, release_id: base.manifest.release_id, cursor: after },
    });
    expect(textOf(reversed)).toMatch(/^invalid_cursor: cursor: .*`next_cursor`/);
  });
});

describe("MCP search_profiles across a publish", () => {
  let client: Client;
  beforeAll(async () => {
    await publish(base);
    client = await mcpClient();
  }, SETUP_TIMEOUT);
  afterAll(() => client.close());

  it("continues a search in the release it started in, as REST's pinned next does", async () => {
    const args = { sort: "grade", limit: 3 };
    const first = await client.callTool({ name: "search_profiles", arguments: args });
    const started = first.structuredContent as { release_id: string; next_cursor: string };
    expect(started.release_id).toBe(base.manifest.release_id);
    await publish(edited);
    const next = await client.callTool({
      name: "search_profiles",
      arguments: { ...args, cursor: started.next_cursor },
    });
    expect(next.isError, textOf(next)).toBeFalsy();
    const continued = next.structuredContent as {
      release_id: string;
      data: { agent_readiness_profile_id: string }[];
    };
    expect(continued.release_id).toBe(base.manifest.release_id);
    const pinned = `/v1/releases/${base.manifest.release_id}/profiles?sort=grade&limit=3&cursor=${started.next_cursor}`;
    const rest = (await (await api(pinned)).json()) as { data: { agent_readiness_profile_id: string }[] };
    expect(continued.data.map((p) => p.agent_readiness_profile_id)).toEqual(
      rest.data.map((p) => p.agent_readiness_profile_id),
    );
    const elsewhere = await client.callTool({
      name: "search_profiles",
      arguments: { ...args, cursor: started.next_cursor, release_id: edited.manifest.release_id },
    });
    expect(textOf(elsewhere)).toMatch(/^invalid_cursor: cursor: is a cursor of release /);
  });
});
