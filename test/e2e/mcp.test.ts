/**
 * The MCP server against the real `wrangler dev`, with the official SDK's client (Client +
 * StreamableHTTPClientTransport), written by nobody on this team: tools listed and called with an
 * API key, answers that agree with the REST routes, and the whole MCP authorization path: the 401,
 * discovery (RFC 9728 → RFC 8414), dynamic registration (RFC 7591), authorization code + PKCE
 * through our sign-in and consent pages, the token for the /mcp resource (RFC 8707), a tool call.
 * And the official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
 * package.json) against the same server: every server scenario that applies to a read-only,
 * stateless catalog server, each of whose checks must pass. docs/mcp.md ("Conformance") names the
 * scenarios left out and why: they call the suite's own test tools, resources and prompts, or
 * capabilities this server does not offer. The suite's CLI sends no credential, so it talks to /mcp
 * through a loopback proxy that adds the test key's Authorization header and forwards everything
 * else as sent, Host and Origin included: `dns-rebinding-protection` still tests the server's own
 * Host/Origin checks, not the proxy's.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAndAllow, startOAuthDeployment, type OAuthDeployment } from "./oauth-fixture";
import { provisionedApiKey } from "./support/api-key";
import { type CredentialProxy, startCredentialProxy } from "./support/credential-proxy";
import { runProcess } from "./support/scripts";
import { REPO_ROOT } from "./support/wrangler-dev";
import { InMemoryHost } from "../worker/support/mcp-host";
import { expectDefined } from "../../src/common/expect";
import { TOOL_NAMES } from "../../src/worker/mcp/tool-names";

let deployment: OAuthDeployment;
let mcpUrl: URL;

beforeAll(async () => {
  deployment = await startOAuthDeployment();
  mcpUrl = new URL("/mcp", deployment.server.url);
});
afterAll(async () => {
  await deployment?.stop();
});

const HOST_NAME = "E2E MCP Host";
/** The tools the server lists, by name in code-unit order. */
const TOOLS = [...TOOL_NAMES].sort();

async function withKey(): Promise<Client> {
  const client = new Client({ name: "e2e", version: "1.0.0" });
  const key = provisionedApiKey(deployment.server.url);
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  return client;
}

async function rest<T>(path: string): Promise<T> {
  const res = await fetch(new URL(path, deployment.server.url), {
    headers: { Authorization: `Bearer ${provisionedApiKey(deployment.server.url)}` },
  });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

interface Compact {
  agent_readiness_profile_id: string;
  product: { key: string };
  funnel: { key: string };
  sha256: string;
}

describe("MCP over wrangler dev, with an API key", () => {
  it("lists the tools and calls each, agreeing with the REST routes", async () => {
    const client = await withKey();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);

      const described = (await client.callTool({ name: "describe_catalog", arguments: {} })).structuredContent as {
        release_id: string;
        profile_count: number;
      };
      const current = await rest<{ release_id: string; profile_count: number }>("/v1/releases/current");
      expect(described.release_id).toBe(current.release_id);
      expect(described.profile_count).toBe(current.profile_count);

      const changes = await client.callTool({ name: "list_changes", arguments: { since: current.release_id } });
      expect(changes.isError).toBeFalsy();
      expect(changes.structuredContent).toMatchObject({
        release_id: current.release_id,
        count: 0,
        data: [],
        has_more: false,
      });

      const search = await client.callTool({ name: "search_profiles", arguments: { limit: 5, sort: "grade" } });
      const found = search.structuredContent as { count: number; data: Compact[] };
      const listed = await rest<{ count: number; data: { agent_readiness_profile_id: string }[] }>(
        "/v1/profiles?limit=5&sort=grade",
      );
      expect(found.count).toBe(listed.count);
      expect(found.data.map((p) => p.agent_readiness_profile_id)).toEqual(
        listed.data.map((p) => p.agent_readiness_profile_id),
      );

      const [a, b] = found.data as [Compact, Compact];
      const got = await client.callTool({
        name: "get_profile",
        arguments: { product: a.product.key, funnel: a.funnel.key },
      });
      const profile = await rest<unknown>(`/v1/profiles/${a.product.key}/${a.funnel.key}`);
      expect((got.structuredContent as { profile: unknown }).profile).toEqual(profile);
      expect((got.structuredContent as { sha256: string }).sha256).toBe(a.sha256);

      const compared = await client.callTool({
        name: "compare_profiles",
        arguments: { profiles: [a, b].map((p) => ({ product: p.product.key, funnel: p.funnel.key })) },
      });
      expect(compared.isError).toBeFalsy();
      expect((compared.structuredContent as { stages: unknown[] }).stages).toHaveLength(5);

      const bad = await client.callTool({ name: "search_profiles", arguments: { grade: ["Z"] } });
      expect(bad.isError).toBe(true);
      const missing = await client.callTool({ name: "get_profile", arguments: { product: "nope", funnel: "nope" } });
      expect(missing.isError).toBe(true);
      expect((missing.content as { text: string }[])[0]?.text).toMatch(/^profile_not_found: /);
    } finally {
      await client.close();
    }
  });
});

/** The characters of text a tool result carries, counted as docs/mcp.md's bound counts them. */
const resultCharacters = (result: object) => {
  const { content, structuredContent } = result as { content: { text?: string }[]; structuredContent?: unknown };
  return content.reduce(
    (sum, item) => sum + (item.text?.length ?? 0),
    JSON.stringify(structuredContent ?? null).length,
  );
};

describe("MCP over wrangler dev, the API-key host path (docs/mcp.md, Add it to a host)", () => {
  it("meets what hosts require: annotations, bounded output, the search and fetch contract", async () => {
    const client = await withKey();
    try {
      expect(client.getServerVersion()?.title).toBe("Readiness Catalog");
      const { tools } = await client.listTools();
      for (const tool of tools) {
        expect(tool.title, tool.name).toBeTruthy();
        expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      }
      const largest = await client.callTool({ name: "search_profiles", arguments: { limit: 100, detail: "full" } });
      expect(largest.isError).toBeFalsy();
      expect(resultCharacters(largest)).toBeLessThanOrEqual(80_000);
      const [entry] = (largest.structuredContent as { data: { profile: { scope: { product: { key: string } } } }[] })
        .data;
      const productKey = expectDefined(entry, "a profile in the catalog").profile.scope.product.key;

      const one = (result: object) => {
        const { content, structuredContent } = result as {
          content: { type: string; text: string }[];
          structuredContent: unknown;
        };
        expect(content).toHaveLength(1);
        const object = JSON.parse(expectDefined(content[0], "the one text item").text);
        expect(object).toEqual(structuredContent);
        return object;
      };
      const { results } = one(await client.callTool({ name: "search", arguments: { query: productKey } })) as {
        results: { id: string; title: string; url: string }[];
      };
      const first = expectDefined(results[0], "a search result for the product key");
      expect(Object.keys(first).sort()).toEqual(["id", "title", "url"]);
      const document = one(await client.callTool({ name: "fetch", arguments: { id: first.id } })) as {
        text: string;
        url: string;
        metadata: { sha256: string };
      };
      expect(document.url).toBe(first.url);
      const res = await fetch(new URL(new URL(document.url).pathname, deployment.server.url), {
        headers: { Authorization: `Bearer ${provisionedApiKey(deployment.server.url)}` },
      });
      expect(document.text).toBe(await res.text());
      expect(`"${document.metadata.sha256}"`).toBe(res.headers.get("ETag"));
    } finally {
      await client.close();
    }
  });
});

describe("MCP over wrangler dev, with the MCP Inspector's CLI", () => {
  it("lists the tools with the README's command, as pasted", { timeout: 120_000 }, async () => {
    const line = expectDefined(
      readFileSync(path.join(REPO_ROOT, "README.md"), "utf8")
        .split("\n")
        .find((text) => text.includes("npx mcp-inspector-cli")),
      "the README's MCP Inspector command",
    ).replaceAll("http://localhost:8787", deployment.server.url);
    const run = await runProcess("bash", ["-c", line], { env: { KEY: provisionedApiKey(deployment.server.url) } });
    expect(run.code, run.stderr).toBe(0);
    const { tools } = JSON.parse(run.stdout) as { tools: { name: string }[] };
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
  });
});

/** An MCP host whose "browser" is the customer signing in and clicking Allow. */
class HostProvider extends InMemoryHost {
  landedAt?: URL;
  constructor(redirect: string) {
    super(redirect, HOST_NAME);
  }
  async redirectToAuthorization(url: URL) {
    expect(url.searchParams.get("resource")).toBe(mcpUrl.href);
    this.landedAt = await signInAndAllow(url.href, deployment.account, HOST_NAME);
  }
}

describe("MCP authorization over wrangler dev, as an MCP host does it", () => {
  it("discovers from the 401, registers, authorizes with PKCE through consent, and calls a tool", async () => {
    const provider = new HostProvider(deployment.callback.redirectUri);
    const first = new Client({ name: "e2e-host", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(first.connect(transport)).rejects.toThrow(UnauthorizedError);
    // Registered dynamically, as a public client.
    expect(provider.client?.client_id).toBeTruthy();
    expect((provider.client as { token_endpoint_auth_method?: string }).token_endpoint_auth_method).toBe("none");
    const code = provider.landedAt?.searchParams.get("code");
    expect(code, String(provider.landedAt)).toBeTruthy();
    await transport.finishAuth(expectDefined(code, "the authorization code"));
    expect(provider.saved?.access_token).toMatch(/^oat_/);
    expect(provider.saved?.scope).toBe("read:catalog");

    const client = new Client({ name: "e2e-host", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    try {
      const result = await client.callTool({ name: "describe_catalog", arguments: {} });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    } finally {
      await client.close();
    }
    // The token is for /mcp alone (RFC 8707): the REST API refuses it.
    const onApi = await fetch(new URL("/v1/releases/current", deployment.server.url), {
      headers: { Authorization: `Bearer ${expectDefined(provider.saved, "the host's tokens").access_token}` },
    });
    expect(onApi.status).toBe(401);
  });
});

const CONFORMANCE_CLI = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

/** The suite's baseline of scenarios allowed to fail (its `--expected-failures` file): it lists none. */
const BASELINE = path.join(REPO_ROOT, "test/e2e/fixtures/mcp-conformance-baseline.yml");

/**
 * The server scenarios that apply (`conformance list --server`), run one after another. The suite's
 * `tools-call-simple-text` and `tools-call-error` would pass too, but only because calling its
 * missing test tool is a tool error with a text: they test nothing of this server.
 */
const APPLICABLE = ["server-initialize", "ping", "tools-list", "resources-list", "dns-rebinding-protection"];

interface Check {
  id: string;
  name: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** Runs one scenario with the suite's CLI; its exit code, output and the checks it wrote. */
async function runScenario(scenario: string, origin: string) {
  const outputDir = path.join(deployment.state.dir, "conformance", scenario);
  mkdirSync(outputDir, { recursive: true });
  const run = await runProcess(process.execPath, [
    CONFORMANCE_CLI,
    "server",
    "--url",
    `${origin}/mcp`,
    "--scenario",
    scenario,
    "--output-dir",
    outputDir,
    "--expected-failures",
    BASELINE,
  ]);
  const written = readdirSync(outputDir, { recursive: true, encoding: "utf8" }).filter(
    (file) => path.basename(file) === "checks.json",
  );
  const checks = written.flatMap((file) => JSON.parse(readFileSync(path.join(outputDir, file), "utf8")) as Check[]);
  return { ...run, checks };
}

describe("the official MCP conformance suite against wrangler dev", () => {
  let proxy: CredentialProxy;
  beforeAll(async () => {
    proxy = await startCredentialProxy(deployment.server.url, {
      name: "Authorization",
      value: `Bearer ${provisionedApiKey(deployment.server.url)}`,
    });
  });
  afterAll(async () => {
    await proxy?.stop();
  });

  it("expects no scenario to fail", () => {
    expect(readFileSync(BASELINE, "utf8")).toMatch(/^server: \[\]$/m);
  });

  it.each(APPLICABLE)("%s: every check passes", async (scenario) => {
    const run = await runScenario(scenario, proxy.origin);
    const failing = run.checks.filter((check) => check.status !== "SUCCESS");
    const report = failing.map((check) => `${check.status} ${check.id}: ${check.errorMessage ?? check.name}`);
    expect(run.checks.length, `no checks written\n${run.stdout}\n${run.stderr}`).toBeGreaterThan(0);
    expect(report, run.stdout).toEqual([]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  });
});
