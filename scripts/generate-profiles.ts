/** `npm run catalog:generate`: the command-line door; usage, work and exit codes live in src/node/catalog/build/generate-command.ts. */
import { runGenerate } from "../src/node/catalog/build/generate-command";

runGenerate();
