/**
 * The MCP Registry entry `npm run deploy` writes (src/node/deploy/server-json.ts): checked with ajv
 * against the constraints the registry's documentation ("server.json", "Publishing Remote Servers")
 * states for the fields we write: a reverse-DNS `name` with one slash, a `description` of at most
 * 100 characters, a `version`, and `remotes` of type streamable-http at an https URL. The deploy
 * itself writes it (test/node/deploy.test.ts, first deploy).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { registryEntryOf, SERVER_SCHEMA, writeRegistryEntry } from "../../src/node/deploy/server-json";
import { tempDir } from "./deploy-support/fixtures";

const REGISTRY_CONSTRAINTS = {
  type: "object",
  required: ["$schema", "name", "description", "version", "remotes"],
  properties: {
    $schema: { const: SERVER_SCHEMA },
    name: { type: "string", minLength: 3, maxLength: 200, pattern: "^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$" },
    title: { type: "string", minLength: 1, maxLength: 100 },
    description: { type: "string", minLength: 1, maxLength: 100 },
    version: { type: "string", maxLength: 255, pattern: "^\\d+\\.\\d+\\.\\d+" },
    remotes: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["type", "url"],
        properties: { type: { enum: ["streamable-http", "sse"] }, url: { type: "string", format: "uri" } },
      },
    },
  },
};

describe("server.json for the MCP Registry", () => {
  const validate = addFormats(new Ajv({ allErrors: true })).compile(REGISTRY_CONSTRAINTS);

  it("names the deployment's domain in reverse and its Streamable HTTP endpoint", () => {
    const entry = registryEntryOf("https://api.readiness-catalog.dev", "0.1.0");
    expect(validate(entry), JSON.stringify(validate.errors)).toBe(true);
    expect(entry.name).toBe("dev.readiness-catalog.api/readiness-catalog");
    expect(entry.remotes).toEqual([{ type: "streamable-http", url: "https://api.readiness-catalog.dev/mcp" }]);
  });

  it("is written beside the deployment's config with the package's version", () => {
    const dir = tempDir("server-json-");
    const file = writeRegistryEntry(dir, "production", "https://readiness-catalog.example.workers.dev/");
    expect(path.basename(file)).toBe("production.server.json");
    const entry = JSON.parse(readFileSync(file, "utf8"));
    expect(validate(entry), JSON.stringify(validate.errors)).toBe(true);
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8"));
    expect(entry.version).toBe(pkg.version);
    expect(entry.remotes[0].url).toBe("https://readiness-catalog.example.workers.dev/mcp");
  });
});
