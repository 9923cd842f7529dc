/** `npm run catalog:pull`: the command-line door; usage, work and exit codes live in src/node/catalog/pull-command.ts. */
import { catalogPull } from "../src/node/catalog/pull-command";

catalogPull.door();
