/**
 * The deployments wrangler.toml describes (production = the top level, plus one per `[env.*]`) and,
 * for each, what it needs on Cloudflare: read through wrangler's own config reader, so environment
 * inheritance follows wrangler's rules exactly.
 */
import path from "node:path";
import { UsageError } from "../cli/cli-run";

export const PRODUCTION = "production";
export const DEFAULT_CONFIG_PATH = "wrangler.toml";

/** The subset of wrangler's resolved config that deploying reads. */
export interface WorkerConfig {
  name: string;
  /** The config file it was read from; relative paths in it (assets.directory) are relative to its directory. */
  configPath?: string;
  compatibility_date?: string;
  compatibility_flags?: string[];
  kv_namespaces: { binding: string; id?: string; preview_id?: string }[];
  r2_buckets: { binding: string; bucket_name?: string }[];
  d1_databases?: {
    binding: string;
    database_name?: string;
    database_id?: string;
    migrations_dir?: string;
    migrations_table?: string;
  }[];
  durable_objects: { bindings: { name: string; class_name: string; script_name?: string }[] };
  migrations: Migration[];
  ratelimits: { name: string; namespace_id: string; simple: { limit: number; period: 10 | 60 } }[];
  queues?: { producers?: { binding: string; queue: string }[]; consumers?: { queue: string }[] };
  vars: Record<string, unknown>;
  secrets?: { required?: string[] };
  services?: { binding: string }[];
  assets?: { directory?: string; binding?: string };
  routes?: (string | { pattern: string; custom_domain?: boolean; zone_name?: string })[];
  workers_dev?: boolean;
  observability?: { enabled?: boolean; head_sampling_rate?: number };
}

export interface Migration {
  tag: string;
  new_classes?: string[];
  new_sqlite_classes?: string[];
  renamed_classes?: { from: string; to: string }[];
  deleted_classes?: string[];
}

export interface Deployment {
  /** "production" or the `[env.<name>]` name. */
  name: string;
  /** What to pass to wrangler's `--env`: "" selects the top level explicitly (no warning). */
  wranglerEnv: string;
  config: WorkerConfig;
  /** KV namespaces by binding, with the title each has on Cloudflare. */
  kvNamespaces: { binding: string; title: string }[];
  buckets: { binding: string; bucketName: string }[];
  /**
   * D1 databases by binding, with the name each has on Cloudflare (`database_name`), where their
   * migrations are (absolute) and the table wrangler records the applied ones in.
   */
  d1Databases: { binding: string; databaseName: string; migrationsDir: string; migrationsTable: string }[];
  /** Every queue the deployment produces to or consumes from, by name (wrangler needs them to exist). */
  queues: string[];
  secrets: string[];
}

/** Every deployment of the config file, production first. */
export async function readDeployments(configPath = DEFAULT_CONFIG_PATH): Promise<Deployment[]> {
  const { experimental_readRawConfig } = await import("wrangler");
  const raw = experimental_readRawConfig({ config: configPath }).rawConfig as { env?: Record<string, unknown> };
  const names = [PRODUCTION, ...Object.keys(raw.env ?? {})];
  return Promise.all(names.map((name) => readDeployment(name, configPath)));
}

export async function readDeployment(name: string, configPath = DEFAULT_CONFIG_PATH): Promise<Deployment> {
  const { unstable_readConfig } = await import("wrangler");
  const wranglerEnv = name === PRODUCTION ? "" : name;
  const config = unstable_readConfig(
    { config: configPath, env: wranglerEnv },
    { hideWarnings: true },
  ) as unknown as WorkerConfig;
  return {
    name,
    wranglerEnv,
    config,
    kvNamespaces: config.kv_namespaces.map(({ binding }) => ({ binding, title: kvTitle(config.name, binding) })),
    buckets: config.r2_buckets.map(({ binding, bucket_name }) => {
      if (!bucket_name)
        throw new Error(`${path.basename(configPath)} (${name}): R2 binding ${binding} has no bucket_name`);
      return { binding, bucketName: bucket_name };
    }),
    d1Databases: (config.d1_databases ?? []).map(({ binding, database_name, migrations_dir, migrations_table }) => {
      if (!database_name)
        throw new Error(`${path.basename(configPath)} (${name}): D1 binding ${binding} has no database_name`);
      return {
        binding,
        databaseName: database_name,
        // wrangler's defaults: ./migrations beside the config, recorded in d1_migrations.
        migrationsDir: path.resolve(path.dirname(configPath), migrations_dir ?? "migrations"),
        migrationsTable: migrations_table ?? "d1_migrations",
      };
    }),
    queues: [
      ...new Set([
        ...(config.queues?.producers ?? []).map((producer) => producer.queue),
        ...(config.queues?.consumers ?? []).map((consumer) => consumer.queue),
      ]),
    ],
    secrets: config.secrets?.required ?? [],
  };
}

/**
 * A KV namespace's title: `<worker>-<binding>`, lower-case with dashes, e.g.
 * `readiness-catalog-sandbox-catalog-kv`. It is the name wrangler's own resource provisioning gives
 * a binding without an id, so a plain `wrangler deploy` and `npm run deploy` agree on it.
 */
export function kvTitle(workerName: string, binding: string): string {
  return `${workerName}-${binding.toLowerCase().replaceAll("_", "-")}`;
}

/** The deployment `--env` names (default production); a usage error lists the known ones. */
export function deploymentNamed(deployments: Deployment[], env: string | undefined): Deployment {
  const wanted = env === undefined || env === "" ? PRODUCTION : env;
  const found = deployments.find((deployment) => deployment.name === wanted);
  if (!found)
    throw new UsageError(
      `--env ${wanted}: no such deployment in the wrangler config (known: ${deployments.map((d) => d.name).join(", ")})`,
    );
  return found;
}
