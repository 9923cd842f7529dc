/**
 * The D1 schema (migrations/) applied to a deployment's CATALOG_DB with wrangler's own
 * `wrangler d1 migrations apply`, which records what it applied in the database (`d1_migrations`),
 * so applying again changes nothing. Locally: the state `wrangler dev` reads (`--persist-to`).
 */
import { wrangler } from "./deploy/wrangler-cli";

export interface MigrationTarget {
  environment?: string;
  /** Like `wrangler dev --persist-to`: the directory that holds `v3/`. */
  persistTo: string;
  configPath?: string;
}

/** Applies every migration not applied yet; returns a one-line summary. */
export async function applyLocalMigrations(target: MigrationTarget): Promise<string> {
  const args = ["d1", "migrations", "apply", "CATALOG_DB", "--local", "--persist-to", target.persistTo];
  if (target.environment) args.push("--env", target.environment);
  if (target.configPath) args.push("--config", target.configPath);
  const output = await wrangler(args);
  const applied = output.match(/^│ (\S+\.sql)\s+│ ✅/gmu)?.length ?? 0;
  return applied === 0 ? "D1 schema up to date" : `D1 schema: ${applied} migration${applied === 1 ? "" : "s"} applied`;
}
