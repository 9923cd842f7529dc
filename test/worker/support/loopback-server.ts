/**
 * The global setups' helper servers (in Node: the worker project's, and the e2e samples') listen
 * here: a free port on 127.0.0.1, which workerd may fetch because the tests set
 * WEBHOOK_LOCAL_TARGETS=loopback.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Starts `server` on 127.0.0.1: its origin, and the global setup's teardown (which ends open requests too). */
export async function listenOnLoopback(server: Server): Promise<{ origin: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

/**
 * For a global setup that starts its work in the background and returns: serves the work's result
 * as JSON (`GET` any path, serialized once) once it is there, and its failure as a 500 that names `what`.
 */
export function serveWhenReady(
  work: Promise<unknown>,
  what: string,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const json = work.then((result) => JSON.stringify(result));
  json.catch(() => {}); // answered to whoever asks
  const server = createServer(async (_request, response) => {
    try {
      const body = await json;
      response.writeHead(200, { "content-type": "application/json" }).end(body);
    } catch (error) {
      response.writeHead(500, { "content-type": "text/plain" }).end(`${what} failed: ${error}`);
    }
  });
  return listenOnLoopback(server);
}
