/**
 * The answer of the query and browse routes: a JSON list made here from small pieces (the page's
 * profiles are their exact bytes from the document), with its Content-Digest and the listing
 * headers: Catalog-Release, Cache-Control, Content-Location on the current route, Link to the next page.
 */
import { concatBytes } from "../../common/bytes";
import type { RouteConfig, z } from "@hono/zod-openapi";
import { problemResponses, RATE_LIMIT_HEADERS } from "../http/openapi-responses";
import type { ProblemCode } from "../http/problem-types";
import { contentDigestOf, toHex } from "../../common/catalog/digest";
import type { Manifest } from "../../common/catalog/manifest";
import { plainResponse } from "./access";
import { NOT_MODIFIED, RELEASE_HEADERS } from "./openapi-responses";
import { withIdentityCoding } from "./identity-only";
import { notModified } from "./conditional";
import { CACHE_CURRENT, CACHE_PINNED, releasePath } from "./representation";

export interface ListPage {
  /** The page's pinned path, with its query string. */
  pinnedPath: string;
  /** The next page's pinned path, or null on the last page. */
  next: string | null;
  pinned: boolean;
  /** The request's If-None-Match: a page whose ETag it names is answered 304. */
  ifNoneMatch: string | undefined;
}

/** `pieces`: JSON text and raw JSON bytes, joined as they are. */
export async function listResponse(manifest: Manifest, pieces: (string | Uint8Array)[], page: ListPage) {
  const encoder = new TextEncoder();
  const body = concatBytes(pieces.map((piece) => (typeof piece === "string" ? encoder.encode(piece) : piece)));
  const headers = new Headers({
    "Catalog-Release": manifest.release_id,
    "Cache-Control": page.pinned ? CACHE_PINNED : CACHE_CURRENT,
  });
  if (!page.pinned) headers.set("Content-Location", page.pinnedPath);
  if (page.next) headers.set("Link", `<${page.next}>; rel="next"`);
  return digestedJson(body, headers, page.ifNoneMatch);
}

/**
 * A JSON body with its own SHA-256 as a strong ETag (whatever in it, a cursor too, made it) and as
 * its Content-Digest, 304 when If-None-Match names it, never compressed on the way (the digest
 * names these bytes: identity-only.ts). `headers`: the rest of the 200's and the 304's headers.
 */
export async function digestedJson(body: Uint8Array, headers: Headers, ifNoneMatch: string | undefined) {
  const digest = toHex(await crypto.subtle.digest("SHA-256", body));
  headers.set("ETag", `"${digest}"`);
  const unchanged = notModified(ifNoneMatch, `"${digest}"`, headers);
  if (unchanged) return plainResponse(unchanged);
  headers.set("Content-Type", "application/json");
  headers.set("Content-Digest", contentDigestOf(digest));
  withIdentityCoding(headers);
  return plainResponse(new Response(body, { status: 200, headers }));
}

/**
 * The pinned path of a listing with the request's own query string, `cursor` replaced: the query
 * travels in the URL, so paging stays in the release it started in.
 */
export function pinnedListPath(manifest: Manifest, route: string, requestUrl: string, cursor?: string): string {
  const search = new URL(requestUrl).search.slice(1);
  const kept = search.split("&").filter((pair) => pair !== "" && !pair.startsWith("cursor="));
  if (cursor !== undefined) kept.push(`cursor=${cursor}`);
  return `${releasePath(manifest.release_id)}/${route}${kept.length ? `?${kept.join("&")}` : ""}`;
}

const header = (description: string) => ({ description, schema: { type: "string" as const } });

/** The OpenAPI responses of a query or browse route: its page, and every problem it can answer. */
export const listResponses = (
  schema: z.ZodType,
  description: string,
  ...codes: ProblemCode[]
): RouteConfig["responses"] => ({
  200: {
    description,
    headers: {
      ...RELEASE_HEADERS,
      ...RATE_LIMIT_HEADERS,
      "Content-Digest": header("RFC 9530 `sha-256=:<base64>:` of the body."),
      "Content-Location": header("The pinned URL of this page (on the routes that follow the current release)."),
      Link: header('`<next page>; rel="next"` while more follow (RFC 8288).'),
    },
    content: { "application/json": { schema } },
  },
  304: NOT_MODIFIED,
  ...problemResponses(
    ...codes,
    "unknown_parameter",
    "invalid_parameter",
    "invalid_cursor",
    "release_not_queryable",
    "release_unavailable",
  ),
});
