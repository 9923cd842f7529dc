/**
 * cloudflare:test's `reset()` empties every binding, D1 included (its schema too): `resetStorage()`
 * is that reset followed by the schema of migrations/ again, as a fresh deployment has it.
 */
import { applyD1Migrations, reset, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";

declare global {
  namespace Cloudflare {
    interface Env {
      /** migrations/, read in Node by vitest.config.ts (readD1Migrations). */
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}

export const applyMigrations = (db: D1Database) => applyD1Migrations(db, env.TEST_MIGRATIONS);

export async function resetStorage(): Promise<void> {
  await reset();
  await applyMigrations(env.CATALOG_DB);
}
