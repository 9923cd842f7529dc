/** `npm run clients`: the command-line door; usage, work and exit codes live in src/node/oauth/clients-command.ts. */
import { clients } from "../src/node/oauth/clients-command";

clients.door();
