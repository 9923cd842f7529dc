/**
 * The MCP Registry entry `npm run deploy` writes (src/node/deploy/server-json.ts), validated with
 * ajv against the registry's own published schema for `server.json`, vendored unedited in
 * fixtures/mcp-registry/ (its version and source in the README there; no network in tests). The
 * deploy itself writes it (test/node/deploy.test.ts, first deploy).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { registryEntryOf, SERVER_SCHEMA, writeRegistryEntry } from "../../src/node/deploy/server-json";
import { tempDir } from "./deploy-support/fixtures";

const REGISTRY_SCHEMA = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "fixtures/mcp-registry/server.schema.json"), "utf8"),
) as { $id: string; $schema: string };

/**
 * The schema is draft-07 (ajv's default draft). It carries `example`, an OpenAPI annotation, and
 * `required` names a sibling branch defines (valid JSON Schema, which ajv's strictRequired lint flags).
 */
const validate = addFormats(new Ajv({ allErrors: true, strict: true, strictRequired: false }))
  .addVocabulary(["example"])
  .compile(REGISTRY_SCHEMA);

const problemsOf = (entry: unknown) => (validate(entry) ? [] : validate.errors);

describe("server.json for the MCP Registry", () => {
  it("names the registry schema version it validates against", () => {
    expect(REGISTRY_SCHEMA.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(SERVER_SCHEMA).toBe(REGISTRY_SCHEMA.$id);
  });

  it("names the deployment's domain in reverse and its Streamable HTTP endpoint", () => {
    const entry = registryEntryOf("https://api.readiness-catalog.dev", "0.1.0");
    expect(problemsOf(entry)).toEqual([]);
    expect(entry.name).toBe("dev.readiness-catalog.api/readiness-catalog");
    expect(entry.remotes).toEqual([{ type: "streamable-http", url: "https://api.readiness-catalog.dev/mcp" }]);
  });

  it("is written beside the deployment's config with the package's version", () => {
    const dir = tempDir("server-json-");
    const file = writeRegistryEntry(dir, "production", "https://readiness-catalog.example.workers.dev/");
    expect(path.basename(file)).toBe("production.server.json");
    const entry = JSON.parse(readFileSync(file, "utf8"));
    expect(problemsOf(entry)).toEqual([]);
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8"));
    expect(entry.version).toBe(pkg.version);
    expect(entry.remotes[0].url).toBe("https://readiness-catalog.example.workers.dev/mcp");
  });

  it("is refused by the schema when a field breaks its rules (so the check can fail)", () => {
    const entry = registryEntryOf("https://api.readiness-catalog.dev", "0.1.0");
    const broken = { ...entry, description: "x".repeat(101), remotes: [{ type: "websocket", url: "wss://x" }] };
    const paths = (problemsOf(broken) ?? []).map((problem) => problem.instancePath);
    expect(paths).toContain("/description");
    expect(paths.some((at) => at.startsWith("/remotes/0"))).toBe(true);
  });
});
