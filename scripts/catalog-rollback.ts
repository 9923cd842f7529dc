/** `npm run catalog:rollback`: the command-line door; usage, work and exit codes live in src/node/catalog/rollback-command.ts. */
import { runCatalogRollback } from "../src/node/catalog/rollback-command";

runCatalogRollback();
