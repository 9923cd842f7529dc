/** Response descriptions shared by the catalog routes in /openapi.json. */
import { PROBLEM_TYPES, ProblemSchema, type ProblemCode } from "../../http/problem";

const header = (description: string) => ({ description, schema: { type: "string" as const } });

export const RELEASE_HEADERS = {
  "Catalog-Release": header("The release these bytes belong to, `sha256:<hex>`."),
  ETag: header("Strong validator; send it back in If-None-Match to get 304 while nothing changed."),
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

export const PARTIAL_CONTENT = {
  description: "One byte range (RFC 9110 §14): `Content-Range: bytes first-last/size`.",
  headers: { ...BYTE_HEADERS, "Content-Range": header("`bytes first-last/size`.") },
};

export const NOT_MODIFIED = { description: "If-None-Match matched the ETag: nothing changed.", headers: RELEASE_HEADERS };

/** `application/problem+json` responses for the given codes, one entry per status. */
export function problemResponses(...codes: ProblemCode[]) {
  const byStatus: Record<number, { description: string; content: { "application/problem+json": { schema: typeof ProblemSchema } } }> = {};
  for (const code of codes) {
    const { status, title } = PROBLEM_TYPES[code];
    const previous = byStatus[status]?.description;
    byStatus[status] = {
      description: previous ? `${previous}; ${title} (\`${code}\`)` : `${title} (\`${code}\`)`,
      content: { "application/problem+json": { schema: ProblemSchema } },
    };
  }
  return byStatus;
}
