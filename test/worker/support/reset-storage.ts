/**
 * `resetStorage()`: a fresh deployment's state. cloudflare:test's `reset()` empties the bindings,
 * D1 included (its schema too), then whatever KV and R2 still hold is deleted, the schema of
 * migrations/ applied again, and the isolate made to remember nothing of the storage before
 * (src/common/isolate-memory.ts).
 */
import { applyD1Migrations, reset, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expectDefined } from "../../../src/common/expect";
import { forgetIsolateMemory } from "../../../src/common/isolate-memory";

declare global {
  namespace Cloudflare {
    interface Env {
      /** migrations/, read in Node by vitest.config.ts (readD1Migrations). */
      TEST_MIGRATIONS: D1Migration[];
      /** The binding names of wrangler.toml's KV namespaces and R2 buckets (vitest.config.ts). */
      TEST_STORAGE: { kv: string[]; r2: string[] };
    }
  }
}

export const applyMigrations = (db: D1Database) => applyD1Migrations(db, env.TEST_MIGRATIONS);

export async function resetStorage(): Promise<void> {
  await reset();
  // After some files (watches.publish.test.ts: hundreds of R2 objects written and read through
  // streams), `reset()` has left KV and R2 whole while D1 and the Durable Objects were emptied:
  // what is left is deleted here, so each file really starts empty.
  await Promise.all([
    ...env.TEST_STORAGE.kv.map((name) => emptyKv(binding<KVNamespace>(name))),
    ...env.TEST_STORAGE.r2.map((name) => emptyBucket(binding<R2Bucket>(name))),
  ]);
  await applyMigrations(env.CATALOG_DB);
  forgetIsolateMemory();
}

const binding = <T>(name: string): T =>
  expectDefined((env as unknown as Record<string, T | undefined>)[name], `the binding ${name}`);

async function emptyKv(kv: KVNamespace): Promise<void> {
  for (let listed = await kv.list(); listed.keys.length > 0; listed = await kv.list())
    await Promise.all(listed.keys.map((key) => kv.delete(key.name)));
}

async function emptyBucket(bucket: R2Bucket): Promise<void> {
  for (let listed = await bucket.list(); listed.objects.length > 0; listed = await bucket.list())
    await bucket.delete(listed.objects.map((object) => object.key));
}
