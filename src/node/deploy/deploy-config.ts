/**
 * Where the resource ids live: not in wrangler.toml, but in the config `npm run deploy` generates
 * and hands to `wrangler deploy --config`: `.wrangler/deploy/<deployment>.wrangler.json` (git-
 * ignored), which is wrangler.toml as JSON with that deployment's KV namespace and D1 database ids
 * filled in. It is remade from the names on every deploy, so losing it loses nothing; `--remote`
 * operator scripts read the ids from it.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expectDefined } from "../../common/expect";
import type { Deployment } from "./deployments";
import type { Resource } from "./resources";

/** `.wrangler/deploy` next to the wrangler config (the project's own `.wrangler`, git-ignored). */
export const deployDirOf = (configPath: string) => path.join(path.dirname(configPath), ".wrangler", "deploy");

type RawConfig = Record<string, unknown> & {
  main?: string;
  assets?: { directory?: string };
  kv_namespaces?: { binding: string; id?: string }[];
  d1_databases?: { binding: string; database_id?: string; migrations_dir?: string }[];
  vars?: Record<string, unknown>;
  env?: Record<string, RawConfig>;
};

export const deployConfigPath = (deployDir: string, deployment: string) =>
  path.join(deployDir, `${deployment}.wrangler.json`);

/**
 * Writes the deployment's generated config and returns its path. The URL the deployment answers at
 * (its custom domain or workers.dev) joins its PUBLIC_ORIGINS, so the worker serves it and issues
 * OAuth tokens for it (src/worker/http/public-origin.ts).
 */
export async function writeDeployConfig(
  configPath: string,
  deployDir: string,
  deployment: Deployment,
  kv: Resource[],
  d1: Resource[],
  url: string,
): Promise<string> {
  const { experimental_readRawConfig } = await import("wrangler");
  const raw = structuredClone(experimental_readRawConfig({ config: configPath }).rawConfig) as RawConfig;
  const target = deployment.wranglerEnv
    ? expectDefined(raw.env?.[deployment.wranglerEnv], `[env.${deployment.wranglerEnv}] in ${configPath}`)
    : raw;
  for (const namespace of target.kv_namespaces ?? []) {
    const resolved = kv.find((resource) => resource.binding === namespace.binding);
    if (resolved) namespace.id = resolved.id;
  }
  for (const database of target.d1_databases ?? []) {
    const resolved = d1.find((resource) => resource.binding === database.binding);
    if (resolved) database.database_id = resolved.id;
  }
  const origins = Array.isArray(target.vars?.PUBLIC_ORIGINS) ? (target.vars.PUBLIC_ORIGINS as string[]) : [];
  target.vars = { ...target.vars, PUBLIC_ORIGINS: [...new Set([...origins, new URL(url).origin])] };
  const file = deployConfigPath(deployDir, deployment.name);
  const from = path.dirname(path.resolve(configPath));
  // Paths in a wrangler config are relative to the config file: keep them pointing at the same files.
  const moved = (file: string) => path.relative(path.resolve(deployDir), path.resolve(from, file));
  for (const section of [raw, ...Object.values(raw.env ?? {})]) {
    if (section.main) section.main = moved(section.main);
    if (section.assets?.directory) section.assets.directory = moved(section.assets.directory);
    for (const database of section.d1_databases ?? [])
      database.migrations_dir = moved(database.migrations_dir ?? "migrations");
  }
  mkdirSync(deployDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(raw, null, 2)}\n`);
  return file;
}

/** The KV namespace ids the last `npm run deploy` of this deployment recorded, by binding. */
export function deployedKvIds(deployDir: string, deployment: string): Record<string, string> | undefined {
  const file = deployConfigPath(deployDir, deployment);
  if (!existsSync(file)) return undefined;
  const raw = JSON.parse(readFileSync(file, "utf8")) as RawConfig;
  const section = deployment === "production" ? raw : raw.env?.[deployment];
  return Object.fromEntries((section?.kv_namespaces ?? []).flatMap(({ binding, id }) => (id ? [[binding, id]] : [])));
}

/** The D1 database ids the last `npm run deploy` of this deployment recorded, by binding. */
export function deployedD1Ids(deployDir: string, deployment: string): Record<string, string> | undefined {
  const file = deployConfigPath(deployDir, deployment);
  if (!existsSync(file)) return undefined;
  const raw = JSON.parse(readFileSync(file, "utf8")) as RawConfig;
  const section = deployment === "production" ? raw : raw.env?.[deployment];
  return Object.fromEntries(
    (section?.d1_databases ?? []).flatMap(({ binding, database_id }) => (database_id ? [[binding, database_id]] : [])),
  );
}

/** Kept secrets (e.g. OPERATOR_SECRET) of a deployment: a dotenv file only its owner can read. */
export const keptSecretsPath = (deployDir: string, deployment: string) =>
  path.join(deployDir, `${deployment}.secrets.env`);

export function readKeptSecrets(deployDir: string, deployment: string): Record<string, string> {
  const file = keptSecretsPath(deployDir, deployment);
  if (!existsSync(file)) return {};
  const lines = readFileSync(file, "utf8").split("\n");
  return Object.fromEntries(
    lines.flatMap((line) => {
      const [, name, value] = /^([A-Z0-9_]+)=(.*)$/.exec(line) ?? [];
      return name !== undefined && value !== undefined ? [[name, value]] : [];
    }),
  );
}

export function writeKeptSecrets(deployDir: string, deployment: string, secrets: Record<string, string>): string {
  const file = keptSecretsPath(deployDir, deployment);
  mkdirSync(deployDir, { recursive: true, mode: 0o700 });
  writeFileSync(
    file,
    Object.entries(secrets)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(""),
    { mode: 0o600 },
  );
  chmodSync(file, 0o600);
  return file;
}
