/**
 * The D1 schema (migrations/) applied to a local deployment's CATALOG_DB in process, the way
 * `wrangler d1 migrations apply --local` applies it: recorded in wrangler's own `d1_migrations`
 * table, so applying again changes nothing and `wrangler d1 migrations list --local` agrees.
 * Deployed databases get theirs from wrangler itself (src/node/deploy/d1-migrations.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** What `npm start` prints of a state's schema, given the migrations just applied. */
export const schemaSummary = (applied: string[]) =>
  applied.length === 0
    ? "D1 schema up to date"
    : `D1 schema: ${applied.length} migration${applied.length === 1 ? "" : "s"} applied`;

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
