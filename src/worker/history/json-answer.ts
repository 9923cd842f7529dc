/**
 * A JSON answer of the history routes with the catalog's list headers (query-response.ts
 * digestedJson: a strong ETag that is the SHA-256 of the body, 304 on If-None-Match, its
 * Content-Digest, never compressed), and `Link` to the next page (RFC 8288).
 */
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import { digestedJson } from "../catalog/query-response";

export function jsonAnswer(
  c: Context<AppEnv>,
  value: unknown,
  options: { cacheControl: string; next?: string | null; release?: string },
): Promise<Response> {
  const body = new TextEncoder().encode(JSON.stringify(value));
  const headers = new Headers({ "Cache-Control": options.cacheControl });
  if (options.release) headers.set("Catalog-Release", options.release);
  if (options.next) headers.set("Link", `<${options.next}>; rel="next"`);
  return digestedJson(body, headers, c.req.header("If-None-Match"));
}
