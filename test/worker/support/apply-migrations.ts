/** Every worker test file starts with the D1 schema of migrations/, as `npm start` and deploy apply it. */
import { applyD1Migrations, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}

await applyD1Migrations(env.CATALOG_DB, env.TEST_MIGRATIONS);
