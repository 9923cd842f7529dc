/**
 * A GET over node:http that returns the bytes exactly as they came off the wire. fetch() decodes
 * any Content-Encoding on its own, which would hide the very coding a test needs to see.
 */
import { request } from "node:http";
import { connect } from "node:net";
import { apiKeyFor } from "./api-key";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Sends the server's provisioned API key, like e2eFetch. */
export function rawGet(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const key = apiKeyFor(baseUrl);
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * Writes one request with exactly the bytes given (method, target and header values as latin1,
 * so invalid UTF-8 reaches the server) and returns the status code and header block of the answer.
 */
export function rawExchange(
  baseUrl: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; head: string }> {
  const { hostname, port } = new URL(baseUrl);
  const key = apiKeyFor(baseUrl);
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${hostname}:${port}`, "Connection: close"];
  if (key) lines.push(`Authorization: Bearer ${key}`);
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1")),
    );
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => {
      const head = received.slice(0, received.indexOf("\r\n\r\n"));
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head });
    });
  });
}
