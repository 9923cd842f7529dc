/**
 * A deployment's D1 schema, brought up to `migrations/` by wrangler itself (`wrangler d1 migrations
 * apply <binding> --remote`), against the generated config that names each database by id. wrangler
 * records what it applied in the database's own `d1_migrations` table, the same record the local
 * CLIs keep (src/node/local/d1-migrations.ts). That record is read first, through the D1 API: when
 * every migration file is in it, there is nothing to apply and wrangler is not started (a process
 * of ~2 s). It runs before the upload: the new code may read the tables a new migration adds.
 */
import { readdirSync } from "node:fs";
import { ApiError, type CloudflareApi, MissingPermission } from "./cloudflare-api";
import type { Deployment } from "./deployments";
import type { Resource } from "./resources";
import { type Environment, wrangler, WranglerFailed } from "./wrangler-cli";

const D1_EDIT = "D1: Edit";

/**
 * Applies each database's unapplied migrations; returns the bindings that had some. `databases`:
 * the deployment's D1 databases with their ids; `env`: wrangler's.
 */
export async function applyD1Migrations(
  api: CloudflareApi,
  configFile: string,
  deployment: Deployment,
  databases: Resource[],
  log: (line: string) => void,
  env: Environment = {},
): Promise<string[]> {
  const applied: string[] = [];
  const accountId = api.accountId;
  for (const database of deployment.d1Databases) {
    const { binding, databaseName } = database;
    const id = databases.find((resource) => resource.binding === binding)?.id;
    if (id && (await pendingMigrations(api, id, database))?.length === 0) {
      log(`${binding}: D1 migrations of ${databaseName}: none to apply`);
      continue;
    }
    const args = ["d1", "migrations", "apply", binding, "--remote", "--config", configFile];
    if (deployment.wranglerEnv) args.push("--env", deployment.wranglerEnv);
    let output: string;
    try {
      output = await wrangler(args, { env: { ...env, CLOUDFLARE_ACCOUNT_ID: accountId } });
    } catch (error) {
      if (error instanceof WranglerFailed && /\[code: 10000\]/.test(error.output))
        throw new MissingPermission(D1_EDIT, `apply the D1 migrations of ${databaseName}`);
      throw error;
    }
    const names = migrationNames(output);
    if (/No migrations to apply/.test(output)) log(`${binding}: D1 migrations of ${databaseName}: none to apply`);
    else {
      log(`${binding}: D1 migrations of ${databaseName}: applied ${names.join(", ") || "the unapplied ones"}`);
      applied.push(binding);
    }
  }
  return applied;
}

/**
 * The migration files (`*.sql` in the migrations directory, as wrangler lists them) not recorded in
 * the database's migrations table; undefined when the table cannot be read (a new database has none:
 * wrangler makes it).
 */
async function pendingMigrations(
  api: CloudflareApi,
  databaseId: string,
  database: Deployment["d1Databases"][number],
): Promise<string[] | undefined> {
  const files = readdirSync(database.migrationsDir).filter((name) => name.endsWith(".sql"));
  let rows: { name: string }[];
  try {
    const [statement] = await api.call<{ results: { name: string }[] }[]>(
      api.account(`/d1/database/${databaseId}/query`),
      {
        permission: D1_EDIT,
        action: `apply the D1 migrations of ${database.databaseName}`,
        method: "POST",
        body: { sql: `SELECT name FROM ${JSON.stringify(database.migrationsTable)}` },
      },
    );
    rows = statement?.results ?? [];
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
  const recorded = new Set(rows.map((row) => row.name));
  return files.filter((name) => !recorded.has(name));
}

/** The migration files wrangler's table of applied migrations lists (`│ 0001_x.sql │ ✅ │`). */
function migrationNames(output: string): string[] {
  return [...new Set([...output.matchAll(/(\d+_[\w-]+\.sql)\s*│\s*✅/g)].map((match) => match[1] ?? ""))].filter(
    Boolean,
  );
}
