/** `npm run keys`: the command-line door; usage, work and exit codes live in src/node/operator/keys-command.ts. */
import { runKeys } from "../src/node/operator/keys-command";

runKeys();
