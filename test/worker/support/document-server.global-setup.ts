/**
 * Worker-project global setup (runs in Node): a small server on 127.0.0.1 that publishes OAuth Client
 * ID Metadata Documents for the tests (src/worker/auth/oauth/client-metadata/). Fetching them from
 * workerd works because the tests set WEBHOOK_LOCAL_TARGETS=loopback (vitest.config.ts), as
 * `npm start` does; a deployment refuses loopback documents.
 * `PUT /doc/<name>` stores `{body, status?, headers?, delayMs?}`; `GET /doc/<name>` answers it (after
 * `delayMs`); `GET /hits/<name>` says how many times the document was fetched.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { TestProject } from "vitest/node";
import { listenOnLoopback } from "./loopback-server";

interface Published {
  body: string;
  status?: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

export default async function setup(project: TestProject) {
  const documents = new Map<string, Published>();
  const hits = new Map<string, number>();
  const server = createServer(async (request, response) => {
    const [, kind, name = ""] = new URL(request.url ?? "/", "http://documents").pathname.split("/");
    if (request.method === "PUT" && kind === "doc") {
      documents.set(name, JSON.parse(await bodyOf(request)) as Published);
      response.writeHead(204).end();
    } else if (kind === "hits") {
      response.writeHead(200, { "content-type": "application/json" }).end(String(hits.get(name) ?? 0));
    } else {
      hits.set(name, (hits.get(name) ?? 0) + 1);
      const published = documents.get(name);
      if (!published) return void response.writeHead(404).end();
      setTimeout(() => {
        if (!response.destroyed)
          response.writeHead(published.status ?? 200, published.headers ?? {}).end(published.body);
      }, published.delayMs ?? 0);
    }
  });
  const { origin, close } = await listenOnLoopback(server);
  project.provide("documentServer", origin);
  return close;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  return Buffer.concat(await Array.fromAsync(request as AsyncIterable<Buffer>)).toString("utf8");
}
