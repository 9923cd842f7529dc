/**
 * A deployment's D1 schema, brought up to `migrations/` by wrangler itself (`wrangler d1 migrations
 * apply <binding> --remote`), against the generated config that names each database by id. wrangler
 * records what it applied in the database's own `d1_migrations` table, the same record the local
 * CLIs keep (src/node/local/d1-migrations.ts), so a rerun applies nothing. It runs before the
 * upload: the new code may read the tables a new migration adds.
 */
import { MissingPermission } from "./cloudflare-api";
import type { Deployment } from "./deployments";
import { type Environment, wrangler, WranglerFailed } from "./wrangler-cli";

const D1_EDIT = "D1: Edit";

/** Applies each database's unapplied migrations; returns the bindings that had some. `env`: wrangler's. */
export async function applyD1Migrations(
  configFile: string,
  deployment: Deployment,
  accountId: string,
  log: (line: string) => void,
  env: Environment = {},
): Promise<string[]> {
  const applied: string[] = [];
  for (const { binding, databaseName } of deployment.d1Databases) {
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

/** The migration files wrangler's table of applied migrations lists (`│ 0001_x.sql │ ✅ │`). */
function migrationNames(output: string): string[] {
  return [...new Set([...output.matchAll(/(\d+_[\w-]+\.sql)\s*│\s*✅/g)].map((match) => match[1] ?? ""))].filter(
    Boolean,
  );
}
