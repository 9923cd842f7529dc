/**
 * The catalog's doors answer the same read questions the same: REST (`/v1/…`), MCP (the official
 * SDK's client, `/mcp`) and the explorer (`/explore`, signed in) all read through the catalog read
 * service (src/worker/catalog/service/), so for one release each question gets one answer, in
 * each door's own shape: which release is current, which profiles a query matches and in what
 * order, a profile by id and its SHA-256, and a profile the release does not hold; and, after
 * two more publishes, a profile's history and the summary of two releases, and a release the
 * history does not know.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { newAccount } from "./auth-fixtures";
import { captureIn, type DashboardClient, signIn, visibleText } from "./dashboard-support";
import { explorerView } from "./explore-support";
import { api } from "./support/api";
import { changesBetween, wholeHistory } from "./support/history";
import { mcpClient } from "./support/mcp";
import { oracleProfiles } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

const generated = testRelease("generated");
const releaseId = generated.manifest.release_id;
const held = oracleProfiles(generated).map((p) => p.profile);
const MISSING = "arp_0000000000000000000000000a";

let explorer: DashboardClient;
let mcp: Client;

beforeAll(async () => {
  await publish(generated);
  explorer = await signIn(await newAccount());
  mcp = await mcpClient();
}, 60_000);
afterAll(() => mcp?.close());

/** A tool's structured answer, or its error text. */
async function tool(name: string, args: Record<string, unknown>) {
  const result = await mcp.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0]?.text ?? "";
  return { error: result.isError ? text : undefined, answer: result.structuredContent as Record<string, unknown> };
}

/** Each question: the query string (REST and explorer) and the same query as MCP arguments. */
const QUERIES: { search: string; args: Record<string, unknown> }[] = [
  { search: "sort=-grade&limit=7", args: { sort: "-grade", limit: 7 } },
  { search: "grade=A,B%2B&stage.pay=ready", args: { grade: ["A", "B+"], "stage.pay": ["ready"] } },
  { search: "q=payments&sort=-last_tested_at", args: { q: "payments", sort: "-last_tested_at" } },
  { search: "primary_stage=pay,operate&limit=5", args: { primary_stage: ["pay", "operate"], limit: 5 } },
];

describe("REST, MCP and the explorer answer the same read questions", () => {
  it("which release is current", async () => {
    const rest = await (await api("/v1/releases/current")).json<{ release_id: string }>();
    const { answer } = await tool("describe_catalog", {});
    const page = await explorerView(explorer, "/explore");
    expect(rest.release_id).toBe(releaseId);
    expect(answer.release_id).toBe(releaseId);
    expect(visibleText(page.html)).toContain(releaseId);
  });

  for (const { search, args } of QUERIES) {
    it(`which profiles match ?${search}, how many, in what order`, async () => {
      const rest = await (await api(`/v1/profiles?${search}`)).json<{
        count: number;
        data: { agent_readiness_profile_id: string }[];
        has_more: boolean;
        next: string | null;
      }>();
      const { answer, error } = await tool("search_profiles", args);
      const page = await explorerView(explorer, `/explore?${search}`);
      const ids = rest.data.map((p) => p.agent_readiness_profile_id);
      expect(error).toBeUndefined();
      expect(answer.count).toBe(rest.count);
      expect(
        (answer.data as { agent_readiness_profile_id: string }[]).map((p) => p.agent_readiness_profile_id),
      ).toEqual(ids);
      // One list convention: the same shape, and the same next page by the same cursor.
      expect(answer).toMatchObject({ object: "list", has_more: rest.has_more });
      expect(answer.next === null).toBe(rest.next === null);
      if (rest.next !== null) expect(rest.next).toContain(`cursor=${answer.next_cursor}`);
      expect(page.count).toBe(rest.count);
      expect(page.ids).toEqual(ids);
    });
  }

  it("one profile by id, with the SHA-256 of its bytes", async () => {
    const profile = expectDefined(held[5], "profile 5");
    const id = profile.agent_readiness_profile_id;
    const rest = await api(`/v1/profiles/${id}`);
    const digest = expectDefined(rest.headers.get("ETag"), "the profile's ETag").replaceAll('"', "");
    const { answer } = await tool("get_profile", { id });
    const page = await explorer.get(`/explore/profiles/${id}`);
    expect(await rest.json()).toEqual(profile);
    expect(answer.profile).toEqual(profile);
    expect(answer.sha256).toBe(digest);
    expect(page.status).toBe(200);
    expect(visibleText(await page.text())).toContain(digest);
  });

  it("a profile the release does not hold: each door says not found, in its own words", async () => {
    const rest = await api(`/v1/profiles/${MISSING}`);
    const { error } = await tool("get_profile", { id: MISSING });
    const page = await explorer.get(`/explore/profiles/${MISSING}`);
    expect(rest.status).toBe(404);
    expect(await rest.json()).toMatchObject({ code: "profile_not_found", release_id: releaseId });
    expect(error).toMatch(
      new RegExp(`^profile_not_found: Release ${releaseId} has no profile with id ${MISSING}\\. Call search_profiles`),
    );
    expect(page.status).toBe(404);
    expect(visibleText(await page.text())).toContain(`the current release has no profile ${MISSING}`);
  });

  it("a release that is not published: REST and MCP both say release_not_found", async () => {
    const unknown = "f".repeat(64);
    const rest = await api(`/v1/releases/${unknown}/profiles?limit=1`);
    const { error } = await tool("search_profiles", { release_id: unknown, limit: 1 });
    expect(rest.status).toBe(404);
    expect(await rest.json()).toMatchObject({ code: "release_not_found" });
    expect(error).toMatch(new RegExp(`^release_not_found: No release sha256:${unknown} is published`));
  });

  it("bad query values: REST's 400 and the tool's error list the same problems", async () => {
    const rest = await api("/v1/profiles?product=Not%20A%20Key&tested_after=yesterday&q=!!!");
    const { error } = await tool("search_profiles", {
      product: ["Not A Key"],
      tested_after: "yesterday",
      q: "!!!",
    });
    expect(rest.status).toBe(400);
    const { errors } = await rest.json<{ errors: { parameter: string; message: string; allowed?: string[] }[] }>();
    const restSaid = errors.map(
      (entry) =>
        `${entry.parameter}: ${entry.message}${entry.allowed ? ` (allowed: ${entry.allowed.join(", ")})` : ""}`,
    );
    expect(restSaid).toHaveLength(3);
    expect(error).toBe(`invalid_parameter: ${restSaid.join("; ")}`);
  });
});

describe("REST, MCP and the explorer answer the same questions of change", () => {
  const base = testRelease("base");
  const regraded = testRelease("regraded");
  const baseId = base.manifest.release_id;
  const regradedId = regraded.manifest.release_id;
  beforeAll(async () => {
    await publish(base);
    await publish(regraded);
  }, 60_000);

  it("a profile's history: the same entries, newest first", async () => {
    const changed = expectDefined(
      (await changesBetween(regradedId, baseId)).find((change) => change.change === "changed"),
      "a regraded profile",
    );
    const id = changed.agent_readiness_profile_id;
    const rest = await wholeHistory(`/v1/profiles/${id}/history`);
    const { answer, error } = await tool("profile_history", { id, limit: 100 });
    const page = await (await explorer.get(`/explore/profiles/${id}`)).text();
    expect(error).toBeUndefined();
    expect(answer.data).toEqual(rest);
    const timeline = captureIn(page, /<table class="timeline">([\s\S]*?)<\/table>/, "the timeline");
    const rows = [...timeline.matchAll(/<code class="release-id">([^<]+)<\/code>[\s\S]*?<td class="grade">([^<]+)</g)];
    expect(rows.map(([, release, grade]) => [release, grade])).toEqual(rest.map((e) => [e.release_id, e.grade]));
    expect(rest.length).toBeGreaterThan(1);
  });

  it("the summary of two releases: the same counts and transitions", async () => {
    const rest = await (await api(`/v1/releases/${regradedId}/changes/summary?since=${baseId}`)).json();
    const { answer, error } = await tool("compare_releases", { since: baseId });
    const page = visibleText(await (await explorer.get("/explore/changes")).text());
    expect(error).toBeUndefined();
    expect(answer).toEqual(rest);
    const { added, removed, changed } = rest as Record<string, number>;
    expect(page).toContain(`Release ${regradedId} compared with ${baseId}`);
    expect(page).toContain(`added ${added} removed ${removed} changed ${changed}`);
  });

  it("a release the history does not know: each door says release_not_found, naming it", async () => {
    const unknown = `sha256:${"e".repeat(64)}`;
    const rest = await api(`/v1/releases/${regradedId}/changes/summary?since=${unknown}`);
    const { error } = await tool("compare_releases", { since: unknown });
    const page = await explorer.get(`/explore/changes?since=${unknown}`);
    expect(rest.status).toBe(404);
    expect(await rest.json()).toMatchObject({ code: "release_not_found", release_id: unknown });
    expect(error).toMatch(new RegExp(`^release_not_found: since ${unknown} was never made current`));
    expect(page.status).toBe(404);
    expect(visibleText(await page.text())).toContain(`${unknown} is not one of them`);
  });
});
