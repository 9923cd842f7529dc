/**
 * /openapi.json: the document zod-openapi generates from the routes, completed with what the
 * app's middleware adds to every route, so that it names every status and header the server can
 * send. Routes declare only their own answers; from their `security` this adds:
 * - every operation: 400 `unknown_host` (public-origin.ts), 400 `unknown_parameter` (strict-query.ts,
 *   except the OAuth endpoints marked `IGNORES_UNKNOWN_QUERY`) and, where it takes query parameters,
 *   400 `invalid_parameter` and `invalid_cursor` (query-problem.ts), 405 with Allow (allowed-methods.ts),
 *   500 `internal_error`, 413 where a body is accepted (body-limit.ts), `Request-Id` on every answer;
 * - a protected one (`security` names a scheme): the 401s, 403 `insufficient_scope` when a scope is
 *   required, 429 and 503 `oauth_not_configured` of protect(), 503 `storage_unavailable` (http/transient.ts),
 *   RateLimit headers on every answer;
 * - a public one: `security: []`;
 * - HEAD, which Hono answers with every GET route (without a body), said in the GET's description
 *   rather than as a twin operation, so the reference lists each route once.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./context";
import { header, RATE_LIMIT_HEADERS, withProblems, type HeaderObject, type ResponseObject } from "./openapi-responses";
import { PROBLEM_TYPES, type ProblemCode } from "./problem-types";
import { REQUEST_ID_HEADER } from "./request-id";
import { isCursorParameter } from "./query-problem";
import { IGNORES_UNKNOWN_QUERY } from "./strict-query";

type Document = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name?: string; in?: string }[];
  requestBody?: unknown;
  responses: Record<string, ResponseObject>;
  "x-unknown-query-parameters"?: string;
}

const UNAUTHORIZED: ProblemCode[] = [
  "unauthenticated",
  "invalid_authorization_header",
  "invalid_api_key",
  "invalid_token",
  "wrong_deployment",
  "revoked_api_key",
];
// storage_unavailable: a protected request reads storage (its key, its guard), and most then more.
const PROTECTED: ProblemCode[] = [...UNAUTHORIZED, "rate_limited", "oauth_not_configured", "storage_unavailable"];
const EVERY_OPERATION: ProblemCode[] = ["unknown_host", "method_not_allowed", "internal_error"];
const REQUEST_ID = {
  [REQUEST_ID_HEADER]: header(
    "This request's id (`req_…`), also in every problem body: quote it when you report a problem.",
    true,
  ),
};
/** What every GET's description ends with: HEAD is answered too (RFC 9110 §9.3.2), and a Range is for GET only (§14.2). */
const HEAD_TOO =
  "HEAD answers the same headers without a body (RFC 9110 §9.3.2); `Range`, `If-Range`, 206 and 416 are for GET only.";

export const DOCUMENT_INFO = {
  title: "Readiness Catalog API",
  version: "1",
  description:
    "Agent readiness profiles of third-party API products, served at the edge. Every error is `application/problem+json` " +
    "with a stable `code` (explained at /docs/errors); the OAuth endpoints answer RFC 6749 errors. A method a path does not " +
    "list is 405 with `Allow`; `OPTIONS` on any path answers 204 with that `Allow`. To look at the catalog in the browser " +
    "(filters, charts, compare), sign in at [/explore](/explore).",
};

/** The document as served at `origin`: its server, and absolute OAuth endpoint URLs. */
export function openApiDocument(
  app: OpenAPIHono<AppEnv>,
  origin: string,
  tags: { name: string; description: string }[],
): Document {
  // A copy: the generator passes the routes' own response objects through, and this edits them.
  const doc = structuredClone(
    app.getOpenAPI31Document({ openapi: "3.1.0", info: DOCUMENT_INFO, servers: [{ url: origin }], tags }),
  );
  for (const item of Object.values(doc.paths ?? {}) as Record<string, Operation>[]) completePathItem(item);
  absoluteOAuthUrls(doc, origin);
  return doc;
}

function completePathItem(item: Record<string, Operation>): void {
  for (const operation of Object.values(item)) completeOperation(operation);
  if (item.get) item.get.description = item.get.description ? `${item.get.description}\n\n${HEAD_TOO}` : HEAD_TOO;
}

function completeOperation(operation: Operation): void {
  const scheme = operation.security?.find((requirement) => Object.keys(requirement).length > 0);
  operation.security ??= [];
  const codes = [...EVERY_OPERATION];
  if (operation["x-unknown-query-parameters"] !== IGNORES_UNKNOWN_QUERY["x-unknown-query-parameters"])
    codes.push("unknown_parameter", ...queryValueProblems(operation));
  if (operation.requestBody) codes.push("content_too_large");
  if (scheme)
    codes.push(
      ...PROTECTED,
      ...(Object.values(scheme).some((scopes) => scopes.length > 0) ? (["insufficient_scope"] as const) : []),
    );
  const byStatus = new Map<string, ProblemCode[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  for (const [status, added] of byStatus)
    operation.responses[status] = withProblems(operation.responses[status], added);
  const extraHeaders: Record<string, HeaderObject> = { ...REQUEST_ID, ...(scheme ? RATE_LIMIT_HEADERS : {}) };
  for (const response of Object.values(operation.responses))
    response.headers = { ...response.headers, ...extraHeaders };
  operation.responses = Object.fromEntries(Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** What a refused value of the operation's query parameters is (query-problem.ts). */
function queryValueProblems(operation: Operation): ProblemCode[] {
  const names = (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name ?? "");
  if (names.length === 0) return [];
  return names.some(isCursorParameter) ? ["invalid_parameter", "invalid_cursor"] : ["invalid_parameter"];
}

const statusOf = (code: ProblemCode) => String(PROBLEM_TYPES[code].status);

/** OpenAPI 3.1 §4.8.29: the flow URLs are URLs; the routes register paths. */
function absoluteOAuthUrls(doc: Document, origin: string): void {
  for (const scheme of Object.values(doc.components?.securitySchemes ?? {}) as {
    type?: string;
    flows?: Record<string, Record<string, unknown>>;
  }[]) {
    if (scheme.type !== "oauth2") continue;
    for (const flow of Object.values(scheme.flows ?? {})) {
      for (const key of ["authorizationUrl", "tokenUrl", "refreshUrl"])
        if (typeof flow[key] === "string") flow[key] = new URL(flow[key], origin).toString();
    }
  }
}
