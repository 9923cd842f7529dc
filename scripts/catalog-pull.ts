/** `npm run catalog:pull`: the command-line door; usage, work and exit codes live in src/node/catalog/pull-command.ts. */
import { runCatalogPull } from "../src/node/catalog/pull-command";

runCatalogPull();
