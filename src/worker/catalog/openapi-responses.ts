/**
 * Response headers and request parameters shared by the catalog routes in /openapi.json (their
 * problem responses come from src/worker/http/openapi-responses.ts).
 */
import { CONDITIONAL_PARAMETERS, header, RANGE_PARAMETERS } from "../http/openapi-responses";

export const RELEASE_HEADERS = {
  "Catalog-Release": header("The release these bytes belong to, `sha256:<hex>`.", true),
  ETag: header("Strong validator; send it back in If-None-Match to get 304 while nothing changed.", true),
  "Cache-Control": header(
    "`private, no-cache, no-transform` for URLs that follow the current release; `private, max-age=31536000, immutable, no-transform` for pinned URLs.",
  ),
};

/** On every catalog answer with a body: the bytes are never compressed, so digests, ETag and ranges hold. */
export const CODING_HEADERS = {
  "Content-Encoding": header("`identity`: served exactly as stored, whatever Accept-Encoding says."),
};

export const BYTE_HEADERS = {
  ...RELEASE_HEADERS,
  ...CODING_HEADERS,
  "Content-Length": header("Size of the body in bytes."),
  "Accept-Ranges": header("`bytes`: one `Range: bytes=` range per request is served."),
  "Content-Digest": header("RFC 9530 `sha-256=:<base64>:` of the body (200 only), from the manifest."),
  "Repr-Digest": header("RFC 9530 digest of the whole representation (also on 206)."),
};

export const PART_HEADERS = {
  ...BYTE_HEADERS,
  "Catalog-Part": header("`<n>/<count>`: this part's number and how many parts the release has."),
  Link: header('`</v1/releases/<id>/parts/<n+1>>; rel="next"` while a next part exists (RFC 8288).'),
  "Content-Location": header("The pinned URL of this part (on /v1/catalog/parts/{n} only)."),
};

/** A 206's body is a byte range of the representation, of its media type but not whole (RFC 9110 §15.3.7). */
const partialContent = (mediaType: string) => ({
  description: "One byte range (RFC 9110 §14): `Content-Range: bytes first-last/size`. The body is those bytes only.",
  headers: { ...BYTE_HEADERS, "Content-Range": header("`bytes first-last/size`.", true) },
  content: { [mediaType]: { schema: { type: "string" as const, format: "binary" } } },
});

/** 206 of a JSON representation (the document): a slice of it, not JSON on its own. */
export const PARTIAL_CONTENT = partialContent("application/json");
/** 206 of a part. */
export const PARTIAL_PART = partialContent("application/octet-stream");

export const NOT_MODIFIED = {
  description: "If-None-Match matched the ETag: nothing changed.",
  headers: RELEASE_HEADERS,
};

/** Request headers of the byte routes (document and parts): conditional and range requests. */
export const BYTE_PARAMETERS = [...CONDITIONAL_PARAMETERS, ...RANGE_PARAMETERS];
export { CONDITIONAL_PARAMETERS };
