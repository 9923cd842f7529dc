/**
 * A JSON answer of the history routes with the catalog's list headers: a strong ETag that is the
 * SHA-256 of the body (If-None-Match naming it → 304), its Content-Digest (RFC 9530), `Link` to
 * the next page (RFC 8288), never compressed (the digest names these bytes: identity-only.ts).
 */
import type { Context } from "hono";
import { contentDigestOf, toHex } from "../../common/catalog/digest";
import type { AppEnv } from "../http/context";
import { plainResponse } from "../catalog/access";
import { notModified } from "../catalog/conditional";
import { withIdentityCoding } from "../catalog/identity-only";

export async function jsonAnswer(
  c: Context<AppEnv>,
  value: unknown,
  options: { cacheControl: string; next?: string | null; release?: string },
): Promise<Response> {
  const body = new TextEncoder().encode(JSON.stringify(value));
  const digest = toHex(await crypto.subtle.digest("SHA-256", body));
  const etag = `"${digest}"`;
  const headers = new Headers({ ETag: etag, "Cache-Control": options.cacheControl });
  if (options.release) headers.set("Catalog-Release", options.release);
  if (options.next) headers.set("Link", `<${options.next}>; rel="next"`);
  const unchanged = notModified(c.req.header("If-None-Match"), etag, headers);
  if (unchanged) return plainResponse(unchanged);
  headers.set("Content-Type", "application/json");
  headers.set("Content-Digest", contentDigestOf(digest));
  withIdentityCoding(headers);
  return plainResponse(new Response(body, { status: 200, headers }));
}
