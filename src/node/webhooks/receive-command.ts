/**
 * `npm run webhooks:receive -- [--port=8790] [--secret=whsec_…] [--fail=N]`
 * A tiny local webhook receiver for `npm start`: prints each delivery (webhook-id, event, release,
 * change counts), verifies its signature with `standardwebhooks` when given the endpoint's secret,
 * and answers 200, or 500 to the first N deliveries to watch the retries.
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";
import { type CliIo, cliCommand, EXIT, UsageError } from "../cli/cli-run";

const HELP = `Usage: npm run webhooks:receive -- [--port=8790] [--secret=whsec_…] [--fail=N]

Listens on http://127.0.0.1:<port>/ and prints every webhook delivery it gets. Register that URL as a
webhook endpoint on a local deployment (npm start's dashboard, Webhooks; local deployments accept
http://127.0.0.1), then publish, roll back or press "Send test event".

  --port <n>       Port to listen on (default 8790).
  --secret <s>     The endpoint's signing secret: each delivery's signature is verified with it.
  --fail <n>       Answer 500 to the first n deliveries (to watch the retries: 5 s, 5 min, …).

Runs until Ctrl-C. Exit codes: 0 stopped, 1 could not listen, 2 usage error.`;

/** `npm run webhooks:receive`: `webhookReceiver.run(argv, io)` in process, `.door()` for scripts/webhook-receiver.ts; serves until SIGINT. */
export const webhookReceiver = cliCommand("webhooks:receive", HELP, receiveMain);

async function receiveMain(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", default: "8790" },
      secret: { type: "string" },
      fail: { type: "string", default: "0" },
    },
  });
  const port = Number(values.port);
  const fail = Number(values.fail);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--port ${values.port} is not a port`);
  if (!Number.isInteger(fail) || fail < 0) throw new UsageError(`--fail ${values.fail} is not a count`);
  const receiver = await listenForWebhooks({ port, secret: values.secret, fail }, io.out);
  io.out(`webhooks:receive: listening on http://127.0.0.1:${receiver.port}/ (Ctrl-C stops)`);
  await new Promise<void>((resolve) => process.once("SIGINT", resolve));
  await receiver.close();
  return EXIT.ok;
}

export interface ReceiverOptions {
  /** 0: any free port. */
  port: number;
  /** The endpoint's signing secret (whsec_…): each delivery's signature is verified with it. */
  secret?: string;
  /** Answer 500 to the first `fail` deliveries. */
  fail: number;
}

/** The receiver itself: listening on 127.0.0.1, one line through `print` per delivery, until closed. */
export async function listenForWebhooks(
  options: ReceiverOptions,
  print: (line: string) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  const verifier = options.secret ? new Webhook(options.secret) : null;
  let received = 0;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [
        name,
        String(request.headers[name] ?? ""),
      ]),
    );
    received += 1;
    const status = received <= options.fail ? 500 : 200;
    print(
      `${new Date().toISOString()} ${headers["webhook-id"]} ${summary(body)} → ${status}${check(verifier, body, headers)}`,
    );
    response.writeHead(status).end(status === 200 ? "ok" : "failing on purpose (--fail)");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", resolve);
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function summary(body: string): string {
  try {
    const event = JSON.parse(body) as { type?: string; data?: { release_id?: string; changes?: unknown } };
    return `${event.type} ${event.data?.release_id} changes ${JSON.stringify(event.data?.changes)}`;
  } catch {
    return `(not JSON: ${body.slice(0, 80)})`;
  }
}

function check(verifier: Webhook | null, body: string, headers: Record<string, string>): string {
  if (!verifier) return "";
  try {
    verifier.verify(body, headers);
    return ", signature verified";
  } catch (error) {
    return `, SIGNATURE REFUSED: ${error instanceof Error ? error.message : String(error)}`;
  }
}
