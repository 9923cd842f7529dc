/**
 * The MCP App views (SEP-1865; docs/mcp.md "A view inside the conversation") through the real
 * /mcp route with the official SDK client: get_profile and compare_profiles, and only they, link a
 * `ui://` shell; each answer names its rendered view, which `resources/read` answers as the MCP
 * App MIME type: the explorer's stage strip or comparison table, self-contained (nothing from
 * another origin, no script), with the pinned URL and sha256 of each profile, at most 30 KB for
 * the largest comparison of the test catalog. A URI that names nothing is resource-not-found.
 */
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/ext-apps";
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { STAGE_LABELS, type Profile } from "../../src/common/catalog/schema";
import { expectDefined } from "../../src/common/expect";
import { APP_SHELL_URI, APP_VIEW_TEMPLATE, COMPARED } from "../../src/worker/mcp/app-uris";
import { api, apiWithBindings } from "./support/api";
import { MCP_HEADERS, mcpClient } from "./support/mcp";
import { oracleProfiles } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

const base = testRelease("base");
const generated = testRelease("generated");
/** docs/mcp.md and issue 39 §5: the largest view weighs at most 30 KB. */
const MAX_VIEW_BYTES = 30 * 1024;
const RESOURCE_NOT_FOUND = -32002;
const INTERNAL_ERROR = -32603;

interface Answered {
  structuredContent?: Record<string, unknown>;
  _meta?: { ui?: { resourceUri?: string } };
  isError?: boolean;
}
interface Cited {
  href: string;
  sha256: string;
}

const scopeOf = (p: Profile) => ({ product: p.scope.product.key, funnel: p.scope.funnel.key });
const viewUriOf = (result: object) =>
  expectDefined((result as Answered)._meta?.ui?.resourceUri, "the answer's _meta.ui.resourceUri");

async function readView(client: Client, uri: string) {
  const { contents } = await client.readResource({ uri });
  const [content] = contents;
  const view = expectDefined(content, `the content of ${uri}`) as { mimeType?: string; text?: string; _meta?: object };
  return { mimeType: view.mimeType, html: expectDefined(view.text, "the view's HTML"), meta: view._meta };
}

/** Nothing from another origin: no script or stylesheet by address, and no URL but `allowed` (the pinned URLs, as text). */
function expectSelfContained(html: string, allowed: string[]) {
  expect(html).not.toMatch(/<script[^>]*\ssrc\s*=/i);
  expect(html).not.toMatch(/<link\b|<img\b|<iframe\b|@import|url\(/i);
  for (const url of html.match(/https?:\/\/[^\s"'<>)]+/g) ?? []) expect(allowed).toContain(url);
}

function expectStages(html: string, profile: Profile) {
  for (const stage of profile.stages) expect(html).toContain(`${STAGE_LABELS[stage.stage]}: ${stage.state_label}`);
}

/** The `count` profiles whose documents are longest: the largest comparison a release allows. */
const longest = (profiles: Profile[], count: number) =>
  [...profiles].sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length).slice(0, count);

describe("MCP Apps: a view inside the conversation", () => {
  let client: Client;
  const profiles = oracleProfiles(base).map((p) => p.profile);
  const first = expectDefined(profiles[0], "a profile of the base release");
  beforeAll(async () => {
    await publish(base);
    client = await mcpClient();
  }, 60_000);
  afterAll(() => client.close());

  it("links a ui:// shell on exactly get_profile and compare_profiles, the library's way", async () => {
    const { tools } = await client.listTools();
    const linked = tools.filter((tool) => (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri);
    expect(linked.map((tool) => tool.name).sort()).toEqual(["compare_profiles", "get_profile"]);
    const byName = Object.fromEntries(linked.map((tool) => [tool.name, tool._meta]));
    expect(byName.get_profile).toEqual({
      ui: { resourceUri: APP_SHELL_URI.profile },
      [RESOURCE_URI_META_KEY]: APP_SHELL_URI.profile,
    });
    expect(byName.compare_profiles).toEqual({
      ui: { resourceUri: APP_SHELL_URI.compare },
      [RESOURCE_URI_META_KEY]: APP_SHELL_URI.compare,
    });
  });

  it("lists the shells as App resources that allow no other origin, and the views as templates", async () => {
    const { resources } = await client.listResources();
    const shells = resources.filter((resource) => resource.uri.startsWith("ui://"));
    expect(shells.map((shell) => shell.uri).sort()).toEqual([APP_SHELL_URI.compare, APP_SHELL_URI.profile]);
    for (const shell of shells) {
      expect(shell.mimeType).toBe(RESOURCE_MIME_TYPE);
      expect(shell._meta).toEqual({
        ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [] }, prefersBorder: true },
      });
    }
    const { resourceTemplates } = await client.listResourceTemplates();
    const views = resourceTemplates.filter((template) => template.uriTemplate.startsWith("ui://"));
    expect(views.map((view) => view.uriTemplate).sort()).toEqual([
      APP_VIEW_TEMPLATE.compare,
      APP_VIEW_TEMPLATE.profile,
    ]);
    for (const view of views) expect(view.mimeType).toBe(RESOURCE_MIME_TYPE);
  });

  it("reads a shell: App HTML, styles and its one script inline, saying what it waits for", async () => {
    for (const uri of Object.values(APP_SHELL_URI)) {
      const shell = await readView(client, uri);
      expect(shell.mimeType).toBe(RESOURCE_MIME_TYPE);
      expect(shell.html).toMatch(/^<!doctype html>/);
      expect(shell.html).toContain("ui/notifications/tool-result");
      expect(shell.html).toContain(`protocolVersion: ${JSON.stringify(LATEST_PROTOCOL_VERSION)}`);
      expectSelfContained(shell.html, []);
    }
  });

  it("get_profile's answer names its view: the grade, the five stage states, the pinned URL and sha256", async () => {
    const result = await client.callTool({ name: "get_profile", arguments: scopeOf(first) });
    const cited = (result as Answered).structuredContent as unknown as Cited & { release_id: string };
    const uri = viewUriOf(result);
    expect(uri).toBe(
      `${APP_SHELL_URI.profile}/${base.manifest.release_id}/${scopeOf(first).product}/${scopeOf(first).funnel}`,
    );
    const view = await readView(client, uri);
    expect(view.mimeType).toBe(RESOURCE_MIME_TYPE);
    expect(view.html).toContain(`<strong class="grade">${first.grade}</strong>`);
    expectStages(view.html, first);
    expect(view.html).toContain(cited.href);
    expect(view.html).toContain(cited.sha256);
    expect(view.html).toContain(base.manifest.release_id);
    expect(view.html).not.toContain("<script");
    expectSelfContained(view.html, [cited.href]);
    expect(view.meta).toMatchObject({ release_id: cited.release_id, sha256: cited.sha256, href: cited.href });
  });

  it("compare_profiles' answer names its view: the table of every profile, each pinned URL and sha256", async () => {
    const compared = profiles.slice(0, 3);
    const result = await client.callTool({ name: "compare_profiles", arguments: { profiles: compared.map(scopeOf) } });
    const cited = ((result as Answered).structuredContent as { profiles: Cited[] }).profiles;
    const view = await readView(client, viewUriOf(result));
    expect(view.mimeType).toBe(RESOURCE_MIME_TYPE);
    expect(view.html).toContain('<table class="compare">');
    for (const [i, profile] of compared.entries()) {
      expect(view.html).toContain(profile.scope.product.name);
      expect(view.html).toContain(expectDefined(cited[i], "a cited profile").href);
      expect(view.html).toContain(expectDefined(cited[i], "a cited profile").sha256);
    }
    expect(view.html).not.toContain("<script");
    expectSelfContained(
      view.html,
      cited.map((one) => one.href),
    );
  });

  it("names no view on a refusal", async () => {
    const result = (await client.callTool({
      name: "get_profile",
      arguments: { product: "no-such-product", funnel: "checkout" },
    })) as Answered;
    expect(result.isError).toBe(true);
    expect(result._meta).toBeUndefined();
  });

  const NAMES_NOTHING: [string, RegExp][] = [
    [`${APP_SHELL_URI.profile}/current/no-such-product/checkout`, /profile_not_found/],
    [`${APP_SHELL_URI.profile}/sha256:${"0".repeat(64)}/a/b`, /release_not_found/],
    [`${APP_SHELL_URI.profile}/yesterday/Not%20A%20Key/%E0%A4`, /release: .*product: .*funnel: /],
    [`${APP_SHELL_URI.compare}/current?ids=arp_nope`, /ids: "arp_nope" not a profile id.*ids: 2 to 10/],
    [
      `${APP_SHELL_URI.compare}/current?ids=${"arp_00000000000000000000000000,".repeat(2).slice(0, -1)}`,
      /profile_not_found/,
    ],
  ];

  it.each(NAMES_NOTHING)("%s is resource-not-found, every problem named", async (uri, message) => {
    const error = await client.readResource({ uri }).then(
      () => expect.unreachable(`${uri} answered`),
      (thrown: { code?: number; message: string }) => thrown,
    );
    expect(error.code).toBe(RESOURCE_NOT_FOUND);
    expect(error.message).toMatch(message);
  });

  it("answers a URI of no view at all with a JSON-RPC error, never a 500", async () => {
    for (const uri of [
      "ui://readiness-catalog/elsewhere",
      "ui://readiness-catalog/compare/current?ids=a&x=1",
      "ui://",
    ]) {
      const res = await api("/mcp", {
        method: "POST",
        headers: MCP_HEADERS,
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "resources/read", params: { uri } }),
      });
      expect(res.status, uri).toBe(200);
      const body = (await res.json()) as { error?: { code: number; message: string } };
      expect(body.error?.message, uri).toMatch(/not found/i);
    }
  });

  it("answers a storage failure while reading a view (or a catalog:// profile) as our fault, never its text", async () => {
    const outage = () => {
      throw new Error("simulated R2 outage at 10.0.0.7");
    };
    const failing = { ...env, RELEASES: { get: outage, head: outage, list: outage } } as unknown as Env;
    const { product, funnel } = scopeOf(first);
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      for (const uri of [
        `${APP_SHELL_URI.profile}/current/${product}/${funnel}`,
        `catalog://profiles/${product}/${funnel}`,
      ]) {
        const res = await apiWithBindings(failing, "/mcp", {
          method: "POST",
          headers: MCP_HEADERS,
          body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "resources/read", params: { uri } }),
        });
        expect(res.status, uri).toBe(200);
        const { error } = await res.json<{ error: { code: number; message: string } }>();
        expect(error.code, uri).toBe(INTERNAL_ERROR);
        expect(error.message, uri).toMatch(/our fault, not your input\); quote mcp_[0-9a-f-]{36}/);
        expect(error.message, uri).not.toContain("simulated R2 outage");
      }
      expect(logged.mock.calls.flat().join("\n")).toContain("simulated R2 outage");
    } finally {
      logged.mockRestore();
    }
  });

  it(`keeps the largest comparison (${COMPARED.max} profiles) of the test catalogs under 30 KB`, async () => {
    for (const release of [base, generated]) {
      await publish(release);
      const largest = longest(
        oracleProfiles(release).map((p) => p.profile),
        COMPARED.max,
      );
      const result = await client.callTool({ name: "compare_profiles", arguments: { profiles: largest.map(scopeOf) } });
      const compare = await readView(client, viewUriOf(result));
      const profile = await readView(
        client,
        viewUriOf(
          await client.callTool({ name: "get_profile", arguments: scopeOf(expectDefined(largest[0], "a profile")) }),
        ),
      );
      for (const view of [compare, profile])
        expect(new TextEncoder().encode(view.html).length).toBeLessThanOrEqual(MAX_VIEW_BYTES);
    }
  }, 60_000);
});
