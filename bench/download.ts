/**
 * One timed GET over a fresh connection (node:http, no keep-alive): time to the first body byte and
 * to the last, bytes received. The body is counted and dropped, so the client costs next to nothing.
 */
import { request } from "node:http";

export interface TimedDownload {
  /** Milliseconds from sending the request to the first body byte. */
  ttfbMs: number;
  seconds: number;
  bytes: number;
}

export function timedDownload(url: string, headers: Record<string, string>): Promise<TimedDownload> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByte = 0;
    let bytes = 0;
    const req = request(url, { headers, agent: false }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`GET ${url} answered ${response.statusCode}, expected 200`));
        return;
      }
      const expected = Number(response.headers["content-length"]);
      response.on("data", (chunk: Buffer) => {
        if (bytes === 0) firstByte = performance.now();
        bytes += chunk.length;
      });
      response.once("end", () => {
        if (bytes !== expected) reject(new Error(`GET ${url} ended after ${bytes} of ${expected} bytes`));
        else resolve({ ttfbMs: firstByte - started, seconds: (performance.now() - started) / 1000, bytes });
      });
      response.once("error", reject);
    });
    req.once("error", reject);
    req.end();
  });
}
