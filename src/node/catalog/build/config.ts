/** The catalog configuration, data/catalog.config.json: `{"namespace": "…"}` (api_contract's namespace). */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const CONFIG_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../data/catalog.config.json");

export function readNamespace(file = CONFIG_FILE): string {
  const config = JSON.parse(readFileSync(file, "utf8")) as { namespace?: unknown };
  if (typeof config.namespace !== "string") throw new Error(`${file}: "namespace" must be a string`);
  return config.namespace;
}
