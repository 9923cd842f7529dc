/** `npm run clients`: the command-line door; usage, work and exit codes live in src/node/oauth/clients-command.ts. */
import { runClients } from "../src/node/oauth/clients-command";

runClients();
