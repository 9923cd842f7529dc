/** `npm run start`: the command-line door; usage, work and exit codes live in src/node/start/command.ts. */
import { npmStart } from "../src/node/start/command";

npmStart.door();
