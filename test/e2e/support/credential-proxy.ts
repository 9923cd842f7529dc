/**
 * A loopback HTTP proxy that adds one header (a credential) to every request and forwards
 * everything else as sent: method, path, headers (Host and Origin included) and body bytes, and the
 * answer back unchanged. For clients that cannot send a header of their own, such as the MCP
 * conformance suite's CLI, whose requests /mcp would otherwise refuse with 401.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface CredentialProxy {
  /** The proxy's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  stop(): Promise<void>;
}

/** Starts the proxy on a port the OS picks, forwarding to `target` (an http origin). */
export async function startCredentialProxy(target: string, header: { name: string; value: string }) {
  const upstream = new URL(target);
  const forward = (incoming: IncomingMessage, answer: ServerResponse) => {
    // Host stays the one the client sent (not the upstream's): the server judges it itself.
    const outgoing = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, [header.name.toLowerCase()]: header.value },
      },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.rawHeaders);
        response.pipe(answer);
      },
    );
    outgoing.once("error", (error) => answer.destroy(error));
    incoming.pipe(outgoing);
  };
  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return { origin: `http://127.0.0.1:${port}`, stop } satisfies CredentialProxy;
}
