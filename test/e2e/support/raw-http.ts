/**
 * A GET over node:http that returns the bytes exactly as they came off the wire. fetch() decodes
 * any Content-Encoding on its own, which would hide the very coding a test needs to see.
 */
import { request } from "node:http";
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
