/**
 * Copies the API reference's UI (Swagger UI, from the swagger-ui-dist package) into static/, the
 * Workers Static Assets directory of wrangler.toml, where it is served at /docs/assets/. The copies
 * are not committed (.gitignore): they follow the installed package. Runs after `npm install`
 * (postinstall), before `wrangler dev` (src/node/local/wrangler-dev.ts) and before the tests
 * (vitest.config.ts); a copy that is already current is left alone.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const ASSETS_DIR = path.join(REPO_ROOT, "static");
const TARGET = path.join(ASSETS_DIR, "docs/assets");
/** The UI's only files (no standalone preset, no source maps), and the licence it ships under. */
const FILES = ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE"];
/** Workers Static Assets headers (_headers): never sniffed, cached an hour. */
const HEADERS = "/docs/assets/*\n  X-Content-Type-Options: nosniff\n  Cache-Control: public, max-age=3600\n";

export function copyDocsAssets() {
  const source = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  mkdirSync(TARGET, { recursive: true });
  for (const file of FILES) {
    const from = path.join(source, file);
    const to = path.join(TARGET, file);
    if (!existsSync(to) || statSync(to).size !== statSync(from).size || !readFileSync(to).equals(readFileSync(from)))
      copyFileSync(from, to);
  }
  const headers = path.join(ASSETS_DIR, "_headers");
  if (!existsSync(headers) || readFileSync(headers, "utf8") !== HEADERS) writeFileSync(headers, HEADERS);
  return TARGET;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) copyDocsAssets();
