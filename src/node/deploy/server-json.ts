/**
 * The deployment's entry for the MCP Registry (`server.json`, registry.modelcontextprotocol.io,
 * "Publishing Remote Servers"): a name in reverse-DNS form of the origin it answers at (the
 * registry verifies it against that domain), what the server is, the API's version, and its one
 * remote, the Streamable HTTP endpoint `<origin>/mcp`. `npm run deploy` writes it beside the
 * deployment's config, for `mcp-publisher publish` to send.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The registry's schema version the entry follows ($schema, as its documentation gives it). */
export const SERVER_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

const DESCRIPTION = "How ready API products are for automated agents, per product and funnel, across five stages.";

export interface RegistryEntry {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  remotes: { type: "streamable-http"; url: string }[];
}

/** `https://api.readiness-catalog.dev` → `dev.readiness-catalog.api/readiness-catalog`. */
export const registryNameOf = (origin: string) =>
  `${new URL(origin).hostname.split(".").reverse().join(".")}/readiness-catalog`;

export function registryEntryOf(origin: string, version: string): RegistryEntry {
  return {
    $schema: SERVER_SCHEMA,
    name: registryNameOf(origin),
    title: "Readiness Catalog",
    description: DESCRIPTION,
    version,
    remotes: [{ type: "streamable-http", url: `${new URL(origin).origin}/mcp` }],
  };
}

/** The API's version, the package's. */
const apiVersion = () =>
  (JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../../package.json"), "utf8")) as { version: string })
    .version;

/** Writes `<deployment>.server.json` in the deploy directory; returns its path. */
export function writeRegistryEntry(deployDir: string, deployment: string, origin: string): string {
  const file = path.join(deployDir, `${deployment}.server.json`);
  writeFileSync(file, `${JSON.stringify(registryEntryOf(origin, apiVersion()), null, 2)}\n`);
  return file;
}
