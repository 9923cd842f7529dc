/**
 * Worker-project global setup (runs in Node): a tiny webhook receiver on 127.0.0.1, which the
 * worker's real queue consumer delivers to (the tests allow loopback targets, as `npm start` does).
 * `POST /hook/<name>?fail=N&status=S` records the request and answers S (default 500, with a
 * 1000-byte body) to the first N requests of that name, then 200; `?redirect=1` answers 302 to
 * /elsewhere/<name> (recorded as `elsewhere:<name>`); `?hang=1` never answers. `GET /log/<name>` returns what was recorded.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { TestProject } from "vitest/node";
import { listenOnLoopback } from "./loopback-server";
import type { ReceivedWebhook } from "./webhook-receiver";

export default async function setup(project: TestProject) {
  const log = new Map<string, ReceivedWebhook[]>();
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://receiver");
    const [, kind, name = ""] = url.pathname.split("/");
    if (request.method === "GET" && kind === "log") {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(log.get(name) ?? []));
      return;
    }
    const entry = await record(request);
    const key = kind === "hook" ? name : `${kind}:${name}`;
    const entries = log.get(key) ?? [];
    entries.push(entry);
    log.set(key, entries);
    const fail = Number(url.searchParams.get("fail") ?? 0);
    if (url.searchParams.get("hang")) {
      // Never answers: the consumer's 10 s timeout ends the attempt.
    } else if (entries.length <= fail) {
      response.writeHead(Number(url.searchParams.get("status") ?? 500)).end("x".repeat(1000));
    } else if (url.searchParams.get("redirect")) {
      response.writeHead(302, { location: `${origin}/elsewhere/${name}` }).end();
    } else {
      response.writeHead(200, { "content-type": "text/plain" }).end("ok");
    }
  });
  const { origin, close } = await listenOnLoopback(server);
  project.provide("webhookReceiver", origin);
  return close;
}

async function record(request: IncomingMessage): Promise<ReceivedWebhook> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const header = (name: string) => String(request.headers[name] ?? "");
  return {
    path: request.url ?? "",
    received_at: Date.now(),
    headers: {
      "webhook-id": header("webhook-id"),
      "webhook-timestamp": header("webhook-timestamp"),
      "webhook-signature": header("webhook-signature"),
    },
    body: Buffer.concat(chunks).toString("utf8"),
  };
}
