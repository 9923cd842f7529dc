/** `npm run start`: the command-line door; usage, work and exit codes live in src/node/start/command.ts. */
import { runStart } from "../src/node/start/command";

runStart();
