/** `npm run catalog:rollback`: the command-line door; usage, work and exit codes live in src/node/catalog/rollback-command.ts. */
import { catalogRollback } from "../src/node/catalog/rollback-command";

catalogRollback.door();
