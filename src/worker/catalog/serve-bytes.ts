/**
 * Answers GET/HEAD for a byte representation (the document or a part): 304 on a matching
 * If-None-Match, 206 for one satisfiable Range, 416 otherwise, 200 with the whole body (a whole
 * part through the worker's part cache). HEAD reads no R2 body at all.
 */
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import { Problem } from "../http/problem";
import { decideRange } from "./byte-range";
import { ifRangeAllowsRange, notModified, requireIfMatch } from "./conditional";
import { withIdentityCoding } from "./identity-only";
import { CATALOG_RETRY_AFTER_SECONDS } from "./release-lookup";
import { wholePartBody } from "./part-cache";
import type { ByteRepresentation } from "./representation";
import { MissingObject, streamSlices } from "./slice-stream";

export async function serveBytes(c: Context<AppEnv>, representation: ByteRepresentation): Promise<Response> {
  const { size, etag } = representation;
  const headers = new Headers({ ETag: etag, "Cache-Control": representation.cacheControl, ...representation.headers });
  // RFC 9110 §13.2.2: If-Match, then If-None-Match, then Range; a 304 repeats the validators (§15.4.5).
  requireIfMatch(c.req.header("If-Match"), etag);
  const unchanged = notModified(c.req.header("If-None-Match"), etag, headers);
  if (unchanged) return unchanged;

  headers.set("Accept-Ranges", "bytes");
  headers.set("Content-Type", representation.contentType);
  withIdentityCoding(headers);
  headers.set("Repr-Digest", representation.digest); // RFC 9530 §3: digest of the whole representation
  // RFC 9110 §14.2: range handling is defined for GET only.
  const honourRange = c.req.method === "GET" && ifRangeAllowsRange(c.req.header("If-Range"), etag);
  const range = honourRange ? decideRange(c.req.header("Range"), size) : { kind: "whole" as const };
  if (range.kind === "unsatisfiable") {
    throw new Problem("range_not_satisfiable", range.detail, { headers: { "Content-Range": `bytes */${size}` } });
  }
  const [start, end] = range.kind === "partial" ? [range.start, range.end] : [0, size - 1];
  const status = range.kind === "partial" ? 206 : 200;
  if (status === 206) headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  else headers.set("Content-Digest", representation.digest); // RFC 9530 §2: digest of this very content
  headers.set("Content-Length", String(end - start + 1));
  if (c.req.method === "HEAD") return new Response(null, { status, headers });

  try {
    const body =
      status === 200 && representation.wholeObject
        ? await wholePartBody(c.env.RELEASES, representation.wholeObject, c.executionCtx)
        : await streamSlices(c.env.RELEASES, representation.slices(start, end), c.executionCtx, c.req.raw.signal);
    return new Response(body, { status, headers });
  } catch (error) {
    if (!(error instanceof MissingObject)) throw error;
    console.error(JSON.stringify({ level: "error", request_id: c.get("requestId"), message: error.message }));
    throw new Problem(
      "release_unavailable",
      "Part of this release cannot be read from storage right now; retry shortly.",
      {
        headers: { "Retry-After": String(CATALOG_RETRY_AFTER_SECONDS) },
      },
    );
  }
}
