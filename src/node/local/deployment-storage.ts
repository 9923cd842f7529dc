/**
 * A deployment's KV and R2 bindings in Node, through wrangler's own `getPlatformProxy`:
 * - local (default): the persisted state `wrangler dev` reads (`.wrangler/state/v3`, or
 *   `<persistTo>/v3` like `wrangler dev --persist-to <persistTo>`), so a publish is served at once;
 * - remote: the real namespaces and buckets, through wrangler's remote bindings and its own login
 *   (`wrangler login` or CLOUDFLARE_API_TOKEN). wrangler.toml holds no namespace ids: they are read
 *   from the config `npm run deploy` generated for the deployment (src/node/deploy/deploy-config.ts).
 * `environment` selects a wrangler environment (e.g. "sandbox"), with its own KV and R2.
 * Remote bindings need `remote = true` on each binding; rather than asking for that in
 * wrangler.toml (which would make `wrangler dev` remote too), a temporary config says it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ReleaseKv, ReleaseStorage } from "../catalog/publish";
import type { QueryDb } from "../catalog/query-load";
import { PUBLISH_RETRIES, retryTransient } from "../../common/transient";
import { applyMigrationsInProcess } from "./d1-migrations";
import { deployConfigPath, deployDirOf, deployedD1Ids, deployedKvIds } from "../deploy/deploy-config";

export interface DeploymentOptions {
  configPath?: string;
  environment?: string;
  /** Like `wrangler dev --persist-to`: the directory that holds `v3/`. Default `.wrangler/state`. */
  persistTo?: string;
  remote?: boolean;
}

export interface DeploymentStorage {
  storage: ReleaseStorage;
  /** Every binding of the deployment, for other operator scripts (e.g. key management). */
  env: Record<string, unknown>;
  /** "local (.wrangler/state/v3)" or "remote"; plus the environment, for messages. */
  where: string;
  /** Locally: the D1 migrations (file names) this opening applied; none when the state had them all. */
  migrationsApplied: string[];
  dispose(): Promise<void>;
}

export const DEFAULT_CONFIG_PATH = "wrangler.toml";
export const DEFAULT_PERSIST_TO = path.join(".wrangler", "state");

export async function openDeploymentStorage(options: DeploymentOptions = {}): Promise<DeploymentStorage> {
  const configPath = path.resolve(options.configPath ?? DEFAULT_CONFIG_PATH);
  const deployment = options.environment ? `env ${options.environment}` : "production";
  // Loaded on first use: wrangler is large, and a usage error should not wait for it.
  const { getPlatformProxy, unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: configPath, env: options.environment }, { hideWarnings: true });
  const kvNamespaces: { binding: string; id?: string; preview_id?: string }[] = config.kv_namespaces;
  const buckets: { binding: string; bucket_name?: string }[] = config.r2_buckets;
  const databases: {
    binding: string;
    database_name?: string;
    database_id?: string;
    preview_database_id?: string;
  }[] = config.d1_databases;
  const bucket = buckets.find((binding) => binding.binding === "RELEASES");
  if (
    !kvNamespaces.some((binding) => binding.binding === "CATALOG_KV") ||
    !bucket?.bucket_name ||
    !databases.some((binding) => binding.binding === "CATALOG_DB")
  ) {
    throw new Error(
      `${configPath} (${deployment}) declares no CATALOG_KV namespace, RELEASES bucket or CATALOG_DB database`,
    );
  }
  const remote = options.remote === true;
  const ids = remote
    ? remoteKvIds(kvNamespaces, options.environment, deployDirOf(configPath))
    : localKvIds(kvNamespaces);

  // Only the KV, R2 and D1 bindings, under the same namespace ids and names (the keys of the
  // persisted state): the worker's Durable Objects are not needed here and would only warn.
  const dir = mkdtempSync(path.join(tmpdir(), "catalog-bindings-"));
  const bindingsConfig = path.join(dir, "wrangler.json");
  writeFileSync(
    bindingsConfig,
    JSON.stringify({
      name: config.name,
      compatibility_date: config.compatibility_date,
      ...(config.account_id ? { account_id: config.account_id } : {}),
      kv_namespaces: kvNamespaces.map((binding) => ({ binding: binding.binding, id: ids[binding.binding], remote })),
      r2_buckets: buckets.map((binding) => ({ binding: binding.binding, bucket_name: binding.bucket_name, remote })),
      // Locally the database wrangler dev opens (its preview_database_id); remotely the id deploy recorded.
      d1_databases: databases.map((binding) => {
        const id = remote
          ? (binding.database_id ?? deployedD1Id(deployDirOf(configPath), options.environment, binding.binding))
          : (binding.preview_database_id ?? binding.database_id ?? binding.binding);
        return {
          binding: binding.binding,
          database_name: binding.database_name,
          database_id: id,
          ...(remote ? {} : { preview_database_id: id }),
          remote,
        };
      }),
    }),
  );
  const persistPath = path.resolve(options.persistTo ?? DEFAULT_PERSIST_TO, "v3");
  try {
    const proxy = await getPlatformProxy<Record<string, unknown>>({
      configPath: bindingsConfig,
      persist: remote ? false : { path: persistPath },
      remoteBindings: remote,
    });
    // Locally the schema comes with the state (`npm start` reports it): a fresh --persist-to works.
    // Tried again while the database is busy (npm start's server writing it): each migration is
    // one transaction with its record, so a try whose answer was lost is harmless to repeat.
    const db = proxy.env.CATALOG_DB as Parameters<typeof applyMigrationsInProcess>[0];
    const migrationsApplied = remote
      ? []
      : await retryTransient(() => applyMigrationsInProcess(db), PUBLISH_RETRIES).catch(async (error: unknown) => {
          await proxy.dispose(); // else its workerd keeps the process alive after the error
          throw error;
        });
    return {
      storage: {
        bucket: proxy.env.RELEASES as ReleaseStorage["bucket"],
        kv: proxy.env.CATALOG_KV as ReleaseKv,
        db: proxy.env.CATALOG_DB as QueryDb,
      },
      env: proxy.env,
      where: remote
        ? `remote ${deployment} (KV ${ids.CATALOG_KV}, R2 ${bucket.bucket_name})`
        : `local ${deployment} (${displayPath(persistPath)})`,
      migrationsApplied,
      dispose: async () => {
        await proxy.dispose();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function deployedD1Id(deployDir: string, environment: string | undefined, binding: string): string {
  const deployment = environment || "production";
  const id = deployedD1Ids(deployDir, deployment)?.[binding];
  if (!id) {
    throw new Error(
      `no Cloudflare database id for ${binding} of ${deployment}: run \`npm run deploy${environment ? ` -- --env ${environment}` : ""}\` first`,
    );
  }
  return id;
}

/** Locally a namespace is named by its `preview_id` (one per deployment), as `wrangler dev` does. */
function localKvIds(kvNamespaces: { binding: string; id?: string; preview_id?: string }[]): Record<string, string> {
  return Object.fromEntries(kvNamespaces.map((kv) => [kv.binding, kv.preview_id ?? kv.id ?? kv.binding]));
}

/** On Cloudflare: an id in the given config, else the one `npm run deploy` recorded. */
function remoteKvIds(
  kvNamespaces: { binding: string; id?: string }[],
  environment: string | undefined,
  deployDir: string,
): Record<string, string> {
  const deployment = environment || "production";
  const deployed = deployedKvIds(deployDir, deployment) ?? {};
  const ids = Object.fromEntries(kvNamespaces.map((kv) => [kv.binding, kv.id ?? deployed[kv.binding]]));
  const unknown = Object.keys(ids).filter((binding) => !ids[binding]);
  if (unknown.length > 0) {
    throw new Error(
      `no Cloudflare namespace id for ${unknown.join(", ")} of ${deployment}: run \`npm run deploy${environment ? ` -- --env ${environment}` : ""}\` ` +
        `first (it finds or creates the namespaces and records their ids in ${deployConfigPath(deployDir, deployment)})`,
    );
  }
  return ids as Record<string, string>;
}

function displayPath(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  return relative && !relative.startsWith("..") ? relative : absolute;
}
