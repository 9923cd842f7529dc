/**
 * The D1 schema (migrations/) applied to a deployment's CATALOG_DB with wrangler's own
 * `wrangler d1 migrations apply`, which records what it applied in the database (`d1_migrations`),
 * so applying again changes nothing. Locally: the state `wrangler dev` reads (`--persist-to`).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { wrangler } from "../deploy/wrangler-cli";

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

/** The subset of a D1 binding applying migrations in process uses (D1Database satisfies it). */
export interface MigrationDb {
  prepare(query: string): { bind(...values: unknown[]): unknown; all(): Promise<{ results: unknown[] }> };
  batch(statements: unknown[]): Promise<unknown>;
}

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../../migrations");

/**
 * The same as `wrangler d1 migrations apply --local`, in process, for the local CLIs that open a
 * deployment's bindings (catalog:publish, rollback, keys): every migration not yet recorded in
 * wrangler's own `d1_migrations` table is applied, one transaction each, and recorded there.
 */
export async function applyMigrationsInProcess(db: MigrationDb): Promise<string[]> {
  await db.batch([
    db.prepare(
      "CREATE TABLE IF NOT EXISTS d1_migrations(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    ),
  ]);
  const applied = new Set(
    ((await db.prepare("SELECT name FROM d1_migrations").all()).results as { name: string }[]).map((row) => row.name),
  );
  const pending = readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith(".sql") && !applied.has(name))
    .sort();
  for (const name of pending) {
    const statements = statementsOf(readFileSync(path.join(MIGRATIONS_DIR, name), "utf8"));
    await db.batch([
      ...statements.map((sql) => db.prepare(sql)),
      db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(name),
    ]);
  }
  return pending;
}

/** A migration's statements: comment lines dropped, split at each `;` that ends a line. */
const statementsOf = (sql: string) =>
  sql
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("--"))
    .join("\n")
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter(Boolean);
