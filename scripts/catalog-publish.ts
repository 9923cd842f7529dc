/** `npm run catalog:publish`: the command-line door; usage, work and exit codes live in src/node/catalog/publish-command.ts. */
import { catalogPublish } from "../src/node/catalog/publish-command";

catalogPublish.door();
