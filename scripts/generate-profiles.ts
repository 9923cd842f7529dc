/** `npm run catalog:generate`: the command-line door; usage, work and exit codes live in src/node/catalog/build/generate-command.ts. */
import { catalogGenerate } from "../src/node/catalog/build/generate-command";

catalogGenerate.door();
