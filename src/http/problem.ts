/**
 * One error vocabulary (RFC 9457 problem details). Every failure the API returns is a `Problem`
 * with a stable machine `code`; `renderProblem` is the one place that turns it into a response.
 */
import { z } from "@hono/zod-openapi";

export const PROBLEM_TYPES = {
  bad_request: { status: 400, title: "Bad request" },
  invalid_release_id: { status: 400, title: "Invalid release id" },
  invalid_part_number: { status: 400, title: "Invalid part number" },
  invalid_profile_id: { status: 400, title: "Invalid profile id" },
  invalid_scope_key: { status: 400, title: "Invalid product or funnel key" },
  wrong_key_mode: { status: 400, title: "Key mode not available on this deployment" },
  unknown_host: { status: 400, title: "Unknown host" },
  unauthenticated: { status: 401, title: "Authentication required" },
  invalid_authorization_header: { status: 401, title: "Malformed Authorization header" },
  invalid_api_key: { status: 401, title: "Invalid API key" },
  invalid_token: { status: 401, title: "Invalid access token" },
  wrong_deployment: { status: 401, title: "Key not valid on this deployment" },
  revoked_api_key: { status: 401, title: "API key revoked" },
  insufficient_scope: { status: 403, title: "Insufficient scope" },
  forbidden: { status: 403, title: "Forbidden" },
  admin_not_approved: { status: 403, title: "Admin scope not approved" },
  key_not_manageable: { status: 403, title: "Key outside this key's authority" },
  not_found: { status: 404, title: "Not found" },
  release_not_found: { status: 404, title: "Release not found" },
  part_not_found: { status: 404, title: "Part not found" },
  profile_not_found: { status: 404, title: "Profile not found" },
  release_not_indexed: { status: 404, title: "Release has no profile index" },
  account_not_found: { status: 404, title: "Account not found" },
  key_not_found: { status: 404, title: "API key not found" },
  admin_request_not_found: { status: 404, title: "Admin request not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  key_limit_reached: { status: 409, title: "Active key limit reached" },
  account_exists: { status: 409, title: "Account already exists" },
  admin_request_decided: { status: 409, title: "Admin request already decided" },
  precondition_failed: { status: 412, title: "Precondition failed" },
  content_too_large: { status: 413, title: "Content too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  range_not_satisfiable: { status: 416, title: "Range not satisfiable" },
  rate_limited: { status: 429, title: "Too many requests" },
  internal_error: { status: 500, title: "Internal error" },
  catalog_unavailable: { status: 503, title: "Catalog not published yet" },
  release_unavailable: { status: 503, title: "Release temporarily unavailable" },
  oauth_not_configured: { status: 503, title: "OAuth not configured on this deployment" },
} as const;
export type ProblemCode = keyof typeof PROBLEM_TYPES;

export const PROBLEM_TYPE_BASE = "https://docs.readiness-catalog.dev/errors#";

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: `${PROBLEM_TYPE_BASE}insufficient_scope` }),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    code: z.enum(Object.keys(PROBLEM_TYPES) as [ProblemCode, ...ProblemCode[]]),
    request_id: z.string(),
  })
  .catchall(z.unknown())
  .openapi("Problem");

/** A failure to render as problem+json. `headers` carries e.g. WWW-Authenticate or Retry-After. */
export class Problem extends Error {
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly options: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(detail);
  }
  get status(): number {
    return PROBLEM_TYPES[this.code].status;
  }
}

export function renderProblem(problem: Problem, requestId: string): Response {
  const { status, title } = PROBLEM_TYPES[problem.code];
  const body = {
    type: PROBLEM_TYPE_BASE + problem.code,
    title,
    status,
    detail: problem.detail,
    code: problem.code,
    request_id: requestId,
    ...problem.options.extra,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/problem+json",
      "Cache-Control": "no-store",
      ...problem.options.headers,
    },
  });
}
