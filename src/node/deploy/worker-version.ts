/**
 * Whether the worker on Cloudflare already is this build, so a rerun uploads nothing. Each upload
 * is tagged (`wrangler deploy --tag`, kept as the version's `workers/tag` annotation) with a
 * fingerprint of what it is made of: the bundle's modules, its static assets and the deployment's
 * resolved settings (every binding, with the ids of the resources it names: a database made anew
 * is a new build).
 * The worker is up to date when the version serving all its traffic carries the same tag.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Bundle } from "./check-bundle";
import { ApiError, type CloudflareApi } from "./cloudflare-api";
import type { Deployment } from "./deployments";

const READ = "Workers Scripts: Read";
const NOT_FOUND = new Set([10007, 10090]);

/** `build-` + 16 hex digits of SHA-256 over the modules, assets and settings (version tags are short). */
export function fingerprint(bundle: Bundle, deployment: Deployment, wranglerVersion: string): string {
  const hash = createHash("sha256");
  for (const file of [...bundle.files].sort((a, b) => a.name.localeCompare(b.name))) {
    hash.update(`${file.name}\0`).update(readFileSync(path.join(bundle.dir, file.name)));
  }
  const { config } = deployment;
  const settings = {
    wranglerVersion,
    name: config.name,
    compatibility: [config.compatibility_date, config.compatibility_flags],
    kv: config.kv_namespaces.map(({ binding, id }) => [binding, id]),
    r2: config.r2_buckets,
    d1: (config.d1_databases ?? []).map(({ binding, database_name, database_id }) => [
      binding,
      database_name,
      database_id,
    ]),
    queues: config.queues,
    services: config.services,
    durableObjects: config.durable_objects.bindings,
    migrations: config.migrations,
    ratelimits: config.ratelimits,
    vars: config.vars,
    secrets: deployment.secrets,
    routes: config.routes,
    workersDev: config.workers_dev,
    observability: config.observability,
    assets: config.assets && { binding: config.assets.binding, files: assetDigests(config) },
  };
  return `build-${hash.update(JSON.stringify(settings)).digest("hex").slice(0, 16)}`;
}

export interface Deployed {
  versionId: string;
  number?: number;
  tag?: string;
  /** The last Durable Object migration tag applied to the worker. */
  migrationTag?: string;
}

/** The version serving all the worker's traffic, or undefined before its first deploy. */
export async function deployedVersion(api: CloudflareApi, workerName: string): Promise<Deployed | undefined> {
  const script = api.account(`/workers/scripts/${workerName}`);
  const action = `read the deployed version of the worker ${workerName}`;
  try {
    const { deployments } = await api.call<{
      deployments: { versions: { version_id: string; percentage: number }[] }[];
    }>(`${script}/deployments`, { permission: READ, action });
    const whole = deployments[0]?.versions.find((version) => version.percentage === 100);
    if (!whole) return undefined;
    const version = await api.call<{ number?: number; annotations?: Record<string, string> }>(
      `${script}/versions/${whole.version_id}`,
      { permission: READ, action },
    );
    const service = await api.call<{ default_environment: { script: { migration_tag?: string } } }>(
      api.account(`/workers/services/${workerName}`),
      { permission: READ, action },
    );
    return {
      versionId: whole.version_id,
      number: version.number,
      tag: version.annotations?.["workers/tag"],
      migrationTag: service.default_environment.script.migration_tag,
    };
  } catch (error) {
    if (error instanceof ApiError && error.code !== undefined && NOT_FOUND.has(error.code)) return undefined;
    throw error;
  }
}

/** "v1 applied, none to apply" or "v1 to apply" (wrangler sends the ones after the applied tag). */
export function migrationStatus(deployment: Deployment, deployed: Deployed | undefined): string {
  const tags = deployment.config.migrations.map((migration) => migration.tag);
  if (tags.length === 0) return "none declared";
  const applied = deployed?.migrationTag;
  const pending = applied === undefined ? tags : tags.slice(tags.indexOf(applied) + 1);
  return pending.length === 0
    ? `${applied} applied, none to apply`
    : `${pending.join(", ")} to apply${applied ? ` after ${applied}` : ""}`;
}

/**
 * Every file of the Workers Static Assets directory (relative path and SHA-256), so a changed asset
 * is a new build even when the worker's code is the same. The directory is relative to the config file.
 */
function assetDigests(config: Deployment["config"]): [string, string][] {
  if (!config.assets?.directory) return [];
  const root = path.resolve(path.dirname(config.configPath ?? "wrangler.toml"), config.assets.directory);
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort()
    .map((file) => [
      file,
      createHash("sha256")
        .update(readFileSync(path.join(root, file)))
        .digest("hex"),
    ]);
}
