/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in package.json)
 * against the real `wrangler dev` serving the sample catalog: every server scenario that applies to
 * a read-only, stateless catalog server, each of whose checks must pass. docs/mcp.md
 * ("Conformance") names the scenarios left out and why: they call the suite's own test tools,
 * resources and prompts, or capabilities this server does not offer.
 *
 * The suite's CLI sends no credential, so it talks to /mcp through a loopback proxy that adds the
 * test key's Authorization header and forwards everything else as sent, Host and Origin included:
 * `dns-rebinding-protection` still tests the server's own Host/Origin checks, not the proxy's.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionedApiKey } from "./support/api-key";
import { catalogState, type CatalogState } from "./support/catalog-state";
import { type CredentialProxy, startCredentialProxy } from "./support/credential-proxy";
import { runProcess } from "./support/scripts";
import { REPO_ROOT, startWranglerDev, type DevServer } from "./support/wrangler-dev";

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

let state: CatalogState;
let server: DevServer;
let proxy: CredentialProxy;

beforeAll(async () => {
  state = catalogState();
  await state.publishSamples();
  server = await startWranglerDev({ persistTo: state.persistTo });
  proxy = await startCredentialProxy(server.url, {
    name: "Authorization",
    value: `Bearer ${provisionedApiKey(server.url)}`,
  });
});

afterAll(async () => {
  await proxy?.stop();
  await server?.stop();
  state?.remove();
});

/** Runs one scenario with the suite's CLI; its exit code, output and the checks it wrote. */
async function runScenario(scenario: string) {
  const outputDir = path.join(state.dir, "conformance", scenario);
  mkdirSync(outputDir, { recursive: true });
  const run = await runProcess(process.execPath, [
    CONFORMANCE_CLI,
    "server",
    "--url",
    `${proxy.origin}/mcp`,
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
  it("expects no scenario to fail", () => {
    expect(readFileSync(BASELINE, "utf8")).toMatch(/^server: \[\]$/m);
  });

  it.each(APPLICABLE)("%s: every check passes", async (scenario) => {
    const run = await runScenario(scenario);
    const failing = run.checks.filter((check) => check.status !== "SUCCESS");
    const report = failing.map((check) => `${check.status} ${check.id}: ${check.errorMessage ?? check.name}`);
    expect(run.checks.length, `no checks written\n${run.stdout}\n${run.stderr}`).toBeGreaterThan(0);
    expect(report, run.stdout).toEqual([]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  });
});
