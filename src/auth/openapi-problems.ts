/**
 * The /openapi.json description of what `protect(scope)` adds to a route: the 401, 403 and 429
 * problems with their challenge and retry headers, and the rate-limit headers on every response.
 */
import { PROBLEM_TYPES, ProblemSchema, type ProblemCode } from "../http/problem";

const header = (description: string) => ({ description, schema: { type: "string" as const } });

export const RATE_LIMIT_HEADERS = {
  "RateLimit-Policy": header('The key\'s quota, e.g. `"default";q=100;w=1` (IETF httpapi RateLimit fields draft).'),
  RateLimit: header('The quota left now, e.g. `"default";r=42;t=1`: r requests remain; t seconds until the quota is whole again.'),
};

const AUTH_CODES: ProblemCode[] = [
  "unauthenticated",
  "invalid_authorization_header",
  "invalid_api_key",
  "invalid_token",
  "wrong_deployment",
  "revoked_api_key",
  "insufficient_scope",
  "rate_limited",
];

const HEADERS_BY_STATUS: Record<number, Record<string, ReturnType<typeof header>>> = {
  401: { "WWW-Authenticate": header('`Bearer realm="…"`, plus `error="invalid_token"` when a credential was sent (RFC 6750 §3).') },
  403: { "WWW-Authenticate": header('`Bearer realm="…", error="insufficient_scope", scope="<needed>"` (RFC 6750 §3.1).') },
  429: { ...RATE_LIMIT_HEADERS, "Retry-After": header("Whole seconds to wait; a retry earlier than this cannot succeed.") },
};

/** Problem responses for the auth codes plus the route's own `codes`, one entry per status. */
export function authProblemResponses(...codes: ProblemCode[]) {
  const byStatus: Record<number, { description: string; headers?: Record<string, ReturnType<typeof header>>; content: { "application/problem+json": { schema: typeof ProblemSchema } } }> = {};
  for (const code of [...AUTH_CODES, ...codes]) {
    const { status, title } = PROBLEM_TYPES[code];
    const previous = byStatus[status]?.description;
    byStatus[status] = {
      description: previous ? `${previous}; ${title} (\`${code}\`)` : `${title} (\`${code}\`)`,
      ...(HEADERS_BY_STATUS[status] ? { headers: HEADERS_BY_STATUS[status] } : {}),
      content: { "application/problem+json": { schema: ProblemSchema } },
    };
  }
  return byStatus;
}
