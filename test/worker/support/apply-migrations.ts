/** Every worker test file starts with the D1 schema of migrations/, as `npm start` and deploy apply it. */
import { env } from "cloudflare:workers";
import { applyMigrations } from "./reset-storage";

await applyMigrations(env.CATALOG_DB);
