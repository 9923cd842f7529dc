/**
 * Throw-away wrangler configs for the deploy tests: the repository's own wrangler.toml with edits,
 * or a small worker of the test's own, each in a temporary directory of the run's scratch directory
 * (removed when the run ends: support/scratch.global-setup.ts).
 */
import { copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
export const REPO_CONFIG = path.join(REPO_ROOT, "wrangler.toml");
export const REPO_TYPES = path.join(REPO_ROOT, "worker-configuration.d.ts");

export function tempDir(prefix = "deploy-test-"): string {
  return mkdtempSync(path.join(inject("nodeScratch"), prefix));
}

/**
 * wrangler.toml with `edit` applied, `main`, the assets directory and the D1 migrations directory
 * made absolute so the copy builds the real worker with its assets and schema, next to a copy of the
 * Env type (worker-configuration.d.ts), as in the repository.
 */
export function editedRepoConfig(edit: (toml: string) => string = (toml) => toml): string {
  const dir = tempDir();
  const toml = readFileSync(REPO_CONFIG, "utf8")
    .replace('main = "src/worker/index.ts"', `main = "${path.join(REPO_ROOT, "src/worker/index.ts")}"`)
    .replaceAll('directory = "./static"', `directory = "${path.join(REPO_ROOT, "static")}"`)
    .replaceAll('migrations_dir = "migrations"', `migrations_dir = "${path.join(REPO_ROOT, "migrations")}"`);
  writeFileSync(path.join(dir, "wrangler.toml"), edit(toml));
  copyFileSync(REPO_TYPES, path.join(dir, "worker-configuration.d.ts"));
  return path.join(dir, "wrangler.toml");
}

/**
 * wrangler.toml whose `key` (e.g. `migrations_dir`, the assets' `directory`) names a copy of the
 * repository's directory `dir`, changed by `change` (given the copy's path): a deploy with that
 * directory edited.
 */
export function repoConfigWithCopyOf(key: string, dir: string, change: (copy: string) => void): string {
  const copy = tempDir(`deploy-${path.basename(dir)}-`);
  cpSync(path.join(REPO_ROOT, dir), copy, { recursive: true });
  change(copy);
  return editedRepoConfig((toml) => toml.replaceAll(`${key} = "${path.join(REPO_ROOT, dir)}"`, `${key} = "${copy}"`));
}

/** A one-deployment worker of the test's own: `source` is its whole main module. */
export function smallWorker(source: string, extraToml = ""): string {
  const dir = tempDir();
  writeFileSync(path.join(dir, "index.js"), source);
  writeFileSync(
    path.join(dir, "wrangler.toml"),
    `name = "fixture-worker"\nmain = "index.js"\ncompatibility_date = "2026-10-23"\n${extraToml}`,
  );
  return path.join(dir, "wrangler.toml");
}

/** The repository's Env type with `line` added to it (e.g. a binding the code would start to use). */
export function envTypeWith(line: string): string {
  return readFileSync(REPO_TYPES, "utf8").replace(
    "interface __BaseEnv_Env {\n",
    `interface __BaseEnv_Env {\n\t${line}\n`,
  );
}
