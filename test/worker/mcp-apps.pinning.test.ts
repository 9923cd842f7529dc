/**
 * The MCP App views are pinned as get_profile is (docs/mcp.md "A view inside the conversation"):
 * an answer from an older release (`release_id`) names the view of that release, and a view URI
 * with a release id shows that release's profile while `current` shows the current one.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Profile } from "../../src/common/catalog/schema";
import { expectDefined } from "../../src/common/expect";
import { APP_SHELL_URI } from "../../src/worker/mcp/app-uris";
import { mcpClient } from "./support/mcp";
import { oracleProfiles } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

const base = testRelease("base");
const regraded = testRelease("regraded");
const older = base.manifest.release_id;

const before = oracleProfiles(base).map((p) => p.profile);
const after = new Map(oracleProfiles(regraded).map((p) => [p.profile.agent_readiness_profile_id, p.profile]));
const gradeNow = (p: Profile) => expectDefined(after.get(p.agent_readiness_profile_id), "the profile now").grade;
/** A profile whose grade the newer release changed, and one it did not. */
const changed = expectDefined(
  before.find((p) => gradeNow(p) !== p.grade),
  "a regraded profile",
);
const other = expectDefined(
  before.find((p) => p !== changed),
  "another profile",
);
const scopeOf = (p: Profile) => ({ product: p.scope.product.key, funnel: p.scope.funnel.key });
const gradeIn = (html: string) => html.match(/<strong class="grade">([^<]+)<\/strong>/)?.[1];

async function htmlOf(client: Client, uri: string) {
  const { contents } = await client.readResource({ uri });
  return expectDefined((contents[0] as { text?: string } | undefined)?.text, `the HTML of ${uri}`);
}

const viewOf = (result: object) =>
  expectDefined((result as { _meta?: { ui?: { resourceUri?: string } } })._meta?.ui?.resourceUri, "the answer's view");

let client: Client;
/** Publishing two releases takes seconds on a shared machine; base becomes the older one. */
beforeAll(async () => {
  for (const release of [base, regraded]) await publish(release);
  client = await mcpClient();
}, 60_000);
afterAll(() => client.close());

describe("MCP Apps: views pinned to a release", () => {
  it("get_profile of an older release names that release's view, which shows its grade", async () => {
    const result = await client.callTool({
      name: "get_profile",
      arguments: { ...scopeOf(changed), release_id: older },
    });
    const uri = viewOf(result);
    expect(uri).toContain(`/${older}/`);
    expect(gradeIn(await htmlOf(client, uri))).toBe(changed.grade);
  });

  it("a view URI with a release id shows that release; with current, the current one", async () => {
    const { product, funnel } = scopeOf(changed);
    expect(gradeIn(await htmlOf(client, `${APP_SHELL_URI.profile}/${older}/${product}/${funnel}`))).toBe(changed.grade);
    expect(gradeIn(await htmlOf(client, `${APP_SHELL_URI.profile}/current/${product}/${funnel}`))).toBe(
      gradeNow(changed),
    );
    const current = await client.callTool({ name: "get_profile", arguments: scopeOf(changed) });
    expect(viewOf(current)).toContain(`/${regraded.manifest.release_id}/`);
  });

  it("compare_profiles of an older release names that release's comparison", async () => {
    const result = await client.callTool({
      name: "compare_profiles",
      arguments: { profiles: [scopeOf(changed), scopeOf(other)], release_id: older },
    });
    const uri = viewOf(result);
    expect(uri).toBe(
      `${APP_SHELL_URI.compare}/${older}?ids=${changed.agent_readiness_profile_id},${other.agent_readiness_profile_id}`,
    );
    const html = await htmlOf(client, uri);
    expect(html).toContain(older);
    expect(html).not.toContain(regraded.manifest.release_id);
  });
});
