/** `npm run webhooks:receive`: the command-line door; usage, work and exit codes live in src/node/webhooks/receive-command.ts. */
import { webhookReceiver } from "../src/node/webhooks/receive-command";

webhookReceiver.door();
