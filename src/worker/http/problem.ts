/**
 * One error vocabulary (RFC 9457 problem details). Every failure the API returns is a `Problem`
 * with a stable machine `code`; `renderProblem` is the one place that turns it into a response.
 * The codes themselves are problem-types.ts.
 */
import { z } from "@hono/zod-openapi";
import { PROBLEM_TYPES, type ProblemCode, problemTypeUrl } from "./problem-types";

export const ProblemSchema = z
  .object({
    type: z.url().openapi({
      description: "Where this code is explained: `/docs/errors#<code>` on this deployment.",
      example: "https://api.readiness-catalog.dev/docs/errors#insufficient_scope",
    }),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    code: z.enum(Object.keys(PROBLEM_TYPES) as [ProblemCode, ...ProblemCode[]]),
    request_id: z
      .string()
      .regex(/^req_\w+$/)
      .openapi({ description: "Also in the `Request-Id` header; quote it when you report a problem." }),
  })
  .catchall(z.unknown())
  .openapi("Problem", { description: "RFC 9457 problem details; branch on `code`, not on `detail`." });

/** A failure to render as problem+json. `headers` carries e.g. WWW-Authenticate or Retry-After. */
export class Problem extends Error {
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly options: { headers?: Record<string, string>; extra?: Record<string, unknown>; status?: number } = {},
  ) {
    super(detail);
  }
  /** The code's status; `options.status` only for an HTTPException whose status no code has. */
  get status(): number {
    return this.options.status ?? PROBLEM_TYPES[this.code].status;
  }
}

/** `origin`: the deployment's public origin, so `type` resolves to its /docs/errors page. */
export function renderProblem(problem: Problem, requestId: string, origin: string): Response {
  const { title } = PROBLEM_TYPES[problem.code];
  const status = problem.status;
  const body = {
    type: problemTypeUrl(origin, problem.code),
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
