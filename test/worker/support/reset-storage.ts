/**
 * cloudflare:test's `reset()` empties every binding, D1 included (its schema too): `resetStorage()`
 * is that reset followed by the schema of migrations/ again, as a fresh deployment has it, and an
 * isolate that remembers nothing of the storage before (src/common/isolate-memory.ts).
 */
import { applyD1Migrations, reset, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { forgetIsolateMemory } from "../../../src/common/isolate-memory";

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
  // After some files (watches.publish.test.ts: hundreds of R2 objects written and read through
  // streams), `reset()` has left KV and R2 whole while D1 and the Durable Objects were emptied:
  // what is left is deleted here, so each file really starts empty.
  await Promise.all([...[env.CATALOG_KV, env.OAUTH_KV, env.AUTH_KV].map(emptyKv), emptyBucket(env.RELEASES)]);
  await applyMigrations(env.CATALOG_DB);
  forgetIsolateMemory();
}

async function emptyKv(kv: KVNamespace): Promise<void> {
  for (let cursor: string | undefined, done = false; !done; ) {
    const page = await kv.list(cursor === undefined ? {} : { cursor });
    await Promise.all(page.keys.map((key) => kv.delete(key.name)));
    done = page.list_complete;
    cursor = page.list_complete ? undefined : page.cursor;
  }
}

async function emptyBucket(bucket: R2Bucket): Promise<void> {
  for (let listed = await bucket.list(); listed.objects.length > 0; listed = await bucket.list())
    await bucket.delete(listed.objects.map((object) => object.key));
}
