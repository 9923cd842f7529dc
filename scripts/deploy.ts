/** `npm run deploy`: the command-line door; usage, work and exit codes live in src/node/deploy/command.ts. */
import { runDeployCommand } from "../src/node/deploy/command";

runDeployCommand();
