/**
 * The building blocks of every operation's responses in /openapi.json: problem responses for a
 * list of codes (one entry per status, the codes named in the schema), the headers they carry, and
 * the request headers of conditional and range requests. Routes list only their own codes;
 * openapi-document.ts adds what the app's middleware adds to every route (auth, limits, 405, …).
 */
import { PROBLEM_TYPES, type ProblemCode } from "./problem-types";

export interface HeaderObject {
  [extension: `x-${string}`]: unknown;
  description: string;
  required?: boolean;
  schema: { type: "string" } | { type: "integer"; minimum: number };
}

export const header = (description: string, required = false): HeaderObject => ({
  description,
  ...(required ? { required } : {}),
  schema: { type: "string" },
});

export const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  "RateLimit-Policy": header(
    'The key\'s quota, e.g. `"default";q=100;w=1` (IETF httpapi RateLimit fields draft). On every answer past authentication.',
  ),
  RateLimit: header(
    'The quota left now, e.g. `"default";r=42;t=1`: r requests remain; t seconds until the quota is whole again.',
  ),
};

const PROBLEM_HEADERS: Record<string, HeaderObject> = {
  "WWW-Authenticate": header(
    '`Bearer realm="…"`, plus `error="invalid_token"` and `error_description` when a credential was sent; on 403 `error="insufficient_scope", scope="<needed>"` (RFC 6750 §3).',
    true,
  ),
  "Retry-After": {
    description: "Whole seconds to wait; a retry earlier than this cannot succeed.",
    required: true,
    schema: { type: "integer", minimum: 1 },
  },
  Allow: header("The methods this path answers, e.g. `GET, HEAD, OPTIONS` (RFC 9110 §15.5.6).", true),
  Accept: header("The media type a body must have: `application/json` (RFC 9110 §15.5.16).", true),
  "Content-Range": header("`bytes */<size>`: the representation's size (RFC 9110 §15.5.17).", true),
};

const NO_STORE = { "Cache-Control": header("`no-store`: an error is never cached.", true) };

export const PROBLEM_SCHEMA_REF = "#/components/schemas/Problem";
export const PROBLEM_MEDIA_TYPE = "application/problem+json";

type ProblemSchemaObject = { allOf: [{ $ref: string }, { properties: { code: { enum: ProblemCode[] } } }] };
export interface ResponseObject {
  [extension: `x-${string}`]: unknown;
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: unknown }>;
}

/** `application/problem+json` responses for the given codes, one entry per status. */
export function problemResponses(...codes: ProblemCode[]): Record<number, ResponseObject> {
  const byStatus: Record<number, ResponseObject> = {};
  for (const code of codes) {
    const status = PROBLEM_TYPES[code].status;
    byStatus[status] = withProblems(byStatus[status], [code]);
  }
  return byStatus;
}

/** The problem codes a response documents (the `code` enum of its problem+json schema). */
export function problemCodesOf(response: ResponseObject | undefined): ProblemCode[] {
  const schema = response?.content?.[PROBLEM_MEDIA_TYPE]?.schema as ProblemSchemaObject | undefined;
  return schema?.allOf[1].properties.code.enum ?? [];
}

/** `response` (or a new one) that may also answer with a problem of each of `codes`. */
export function withProblems(response: ResponseObject | undefined, codes: readonly ProblemCode[]): ResponseObject {
  const known = problemCodesOf(response);
  const added = codes.filter((code) => !known.includes(code));
  if (response && added.length === 0) return response;
  const all = [...known, ...added];
  const titles = added.map((code) => `${PROBLEM_TYPES[code].title} (\`${code}\`)`).join("; ");
  const schema: ProblemSchemaObject = {
    allOf: [{ $ref: PROBLEM_SCHEMA_REF }, { properties: { code: { enum: all } } }],
  };
  const onlyProblems = Object.keys(response?.content ?? {}).every((type) => type === PROBLEM_MEDIA_TYPE);
  return {
    description: response ? `${response.description}; ${titles}` : titles,
    headers: { ...response?.headers, ...problemHeaders(all, onlyProblems) },
    content: { ...response?.content, [PROBLEM_MEDIA_TYPE]: { schema } },
  };
}

/** The headers problems of these codes carry; required when every one of them sends it. */
function problemHeaders(codes: ProblemCode[], onlyProblems: boolean): Record<string, HeaderObject> {
  const headers: Record<string, HeaderObject> = { ...NO_STORE };
  for (const [name, value] of Object.entries(PROBLEM_HEADERS)) {
    const senders = codes.filter((code) =>
      (PROBLEM_TYPES[code] as { headers?: readonly string[] }).headers?.includes(name),
    );
    if (senders.length > 0) headers[name] = { ...value, required: onlyProblems && senders.length === codes.length };
  }
  if (!onlyProblems) headers["Cache-Control"] = { ...NO_STORE["Cache-Control"], required: false };
  return headers;
}

const requestHeader = (name: string, description: string) => ({
  name,
  in: "header" as const,
  required: false,
  description,
  schema: { type: "string" as const },
});

/** RFC 9110 §13.1.2, on every route that sends an ETag. */
export const IF_NONE_MATCH = requestHeader(
  "If-None-Match",
  "A list of entity tags (or `*`): 304 Not Modified while one matches the `ETag` (weak comparison, RFC 9110 §13.1.2).",
);

/** Conditional request headers (RFC 9110 §13) of the routes that also honour If-Match. */
export const CONDITIONAL_PARAMETERS = [
  IF_NONE_MATCH,
  requestHeader(
    "If-Match",
    "A list of entity tags (or `*`): 412 unless one equals the `ETag` (strong comparison, RFC 9110 §13.1.1); checked first.",
  ),
];

/** Range request headers (RFC 9110 §14) of the byte routes (document and parts). */
export const RANGE_PARAMETERS = [
  requestHeader(
    "Range",
    "One range, `bytes=first-last`, `bytes=first-` or `bytes=-suffix` → 206; one past the end → 416. Several ranges or another unit are ignored (200, the whole body).",
  ),
  requestHeader(
    "If-Range",
    "The `ETag` of the representation a partial download began with: the Range is honoured while it still matches, else the whole body (200).",
  ),
];
