/** `npm run operator`: the command-line door; usage, work and exit codes live in src/node/operator/operator-command.ts. */
import { operator } from "../src/node/operator/operator-command";

operator.door();
