/**
 * `npm run webhooks:receive -- [--port=8790] [--secret-file <path>] [--fail=N]`, the endpoint's secret
 * in $WEBHOOK_SECRET or that file: a tiny local webhook receiver for `npm start` (receiver.ts).
 */
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";
import { type CliIo, cliCommand, EXIT, UsageError } from "../cli/cli-run";
import { readSecret } from "../cli/secret-option";
import { listenForWebhooks, type ReceiverOptions } from "./receiver";

const HELP = `Usage: npm run webhooks:receive -- [--port=8790] [--secret-file <path>] [--fail=N]

Listens on http://127.0.0.1:<port>/ and prints every webhook delivery it gets. Register that URL as a
webhook endpoint on a local deployment (npm start's dashboard, Webhooks; local deployments accept
http://127.0.0.1), then publish, roll back or press "Send test event".

With the endpoint's signing secret (whsec_…) in $WEBHOOK_SECRET or in a file, each delivery's
signature is verified: a refused one (absent, forged, or timestamped more than 5 min off) is answered
401. A malformed request (no webhook-id, no numeric webhook-timestamp, a body that is not JSON) is
answered 400. A webhook-id already answered 200 within 5 min is answered 200 again, not printed twice.

  --port <n>           Port to listen on (default 8790).
  --secret-file <p>    Read the signing secret from file <p> (- for standard input), not $WEBHOOK_SECRET.
  --fail <n>           Answer 500 to the first n deliveries (to watch the retries: 5 s, 5 min, …).

Runs until Ctrl-C. Exit codes: 0 stopped, 1 could not listen, 2 usage error.`;

/** `npm run webhooks:receive`: `webhookReceiver.run(argv, io)` in process, `.door()` for scripts/webhook-receiver.ts; serves until SIGINT. */
export const webhookReceiver = cliCommand("webhooks:receive", HELP, receiveMain);

async function receiveMain(argv: string[], io: CliIo): Promise<number> {
  const options = receiverOptions(argv, io);
  const receiver = await listenForWebhooks(options, io.out);
  const verifying = options.secret ? "signatures verified" : "signatures not checked: no $WEBHOOK_SECRET";
  io.out(`webhooks:receive: listening on http://127.0.0.1:${receiver.port}/ (${verifying}; Ctrl-C stops)`);
  await new Promise<void>((resolve) => process.once("SIGINT", resolve));
  await receiver.close();
  return EXIT.ok;
}

/** The receiver's options from the command line and the environment; a UsageError for bad ones. */
export function receiverOptions(argv: string[], io: CliIo): ReceiverOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", default: "8790" },
      "secret-file": { type: "string" },
      /** Deprecated: on the command line, npm echoes the secret and ps shows it. */
      secret: { type: "string" },
      fail: { type: "string", default: "0" },
    },
  });
  const port = Number(values.port);
  const fail = Number(values.fail);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--port ${values.port} is not a port`);
  if (!Number.isInteger(fail) || fail < 0) throw new UsageError(`--fail ${values.fail} is not a count`);
  return { port, fail, secret: signingSecret(values, io) };
}

const SECRET_SOURCE = {
  command: "webhooks:receive",
  envName: "WEBHOOK_SECRET",
  fileOption: "secret-file",
  deprecatedOption: "secret",
};

/** The endpoint's secret, checked now: one the verifier cannot use is a usage error, not a 401 per delivery. */
function signingSecret(values: { "secret-file"?: string; secret?: string }, io: CliIo): string | undefined {
  const secret = readSecret(SECRET_SOURCE, { file: values["secret-file"], deprecated: values.secret }, io);
  if (secret === undefined) return undefined;
  try {
    new Webhook(secret);
  } catch {
    throw new UsageError("the signing secret is not a whsec_… secret (base64 after whsec_)");
  }
  return secret;
}
