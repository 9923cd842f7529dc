/**
 * The one mechanism that refuses unknown query parameters (docs/contract.md "Query parameters"):
 * every route declares its query with `strictQuery({...})` (or `NO_QUERY`), which lists the
 * accepted parameters in /openapi.json and makes any other parameter a 400 `unknown_parameter`
 * naming each one, never silently ignored. The app's default hook turns the failure into that
 * problem (validation-problem.ts); a route hook of its own starts with `rejectUnknownQuery(result)`.
 */
import { type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { Problem } from "./problem";

/** zod's message for the unknown keys of a strict query: which parameters the route accepts. */
const acceptedOf = (names: string[]) =>
  names.length === 0 ? "this route takes no query parameters" : `this route accepts ${names.join(", ")}`;

/** A route's query schema: exactly these parameters, any other one is an `unknown_parameter`. */
export function strictQuery<const Shape extends z.ZodRawShape>(shape: Shape) {
  const accepted = acceptedOf(Object.keys(shape));
  return z.strictObject(shape, {
    error: (issue) => (issue.code === "unrecognized_keys" ? accepted : undefined),
  });
}

/** The query schema of a route that takes no query parameters. */
export const NO_QUERY = strictQuery({});

/**
 * What a route helper demands of its config: a query schema, so none can be forgotten
 * (`strictQuery`/`NO_QUERY`; test/worker/openapi.test.ts sends every operation an unknown one).
 */
export type StrictQueryRequest = {
  request: { query: NonNullable<NonNullable<RouteConfig["request"]>["query"]> };
};

export interface QueryProblemEntry {
  parameter: string;
  /** The same name, as `bad_request` entries call it, so one reader handles both problems. */
  path: string;
  message: string;
  code: string;
  /** The values the parameter takes, where a route lists them (the query routes). */
  allowed?: readonly string[];
}

type QueryIssue = z.ZodError["issues"][number];

/** One entry per parameter of an `unrecognized_keys` issue (a strict query's message names the accepted ones). */
export function unknownParameterEntries(issue: QueryIssue): QueryProblemEntry[] {
  if (issue.code !== "unrecognized_keys") return [];
  return issue.keys.map((key) => ({
    parameter: key,
    path: key,
    message: `unknown query parameter "${key}": ${issue.message}`,
    code: issue.code,
  }));
}

/** The entry of any other problem of the query: zod's path and message, unless the route says more. */
function issueEntry(issue: QueryIssue): QueryProblemEntry {
  const name = issue.path.map(String).join(".");
  return { parameter: name, path: name, message: issue.message, code: issue.code };
}

/**
 * The one builder of the `unknown_parameter` problem: for a query with keys the route does not
 * take, else null. Its `errors` lists the unknown parameters first, then every other problem of the
 * same query (as `describe` words them), so a client learns all that is wrong in one answer.
 */
export function unknownParameterProblem(
  error: z.ZodError,
  describe: (issue: QueryIssue) => QueryProblemEntry = issueEntry,
): Problem | null {
  const unknown = error.issues.flatMap(unknownParameterEntries);
  const others = error.issues.filter((issue) => issue.code !== "unrecognized_keys").map(describe);
  if (unknown.length === 0) return null;
  const names = unknown.map((entry) => JSON.stringify(entry.parameter)).join(", ");
  const accepted = error.issues.find((issue) => issue.code === "unrecognized_keys")?.message ?? "";
  const more =
    others.length === 0 ? "" : ` ${others.length} more problem${others.length === 1 ? "" : "s"} in errors[].`;
  const detail = `${unknown.length === 1 ? "Unknown query parameter" : `${unknown.length} unknown query parameters`} ${names}: ${accepted}.${more}`;
  return new Problem("unknown_parameter", detail, { extra: { errors: [...unknown, ...others] } });
}

/** First line of a route hook of its own: a query naming parameters the route does not take is thrown. */
export function rejectUnknownQuery(result: { target: string; success: boolean; error?: unknown }): void {
  if (result.success || result.target !== "query" || !(result.error instanceof z.ZodError)) return;
  const problem = unknownParameterProblem(result.error);
  if (problem) throw problem;
}

/**
 * The one exception, marked on the operation in /openapi.json: OAuth endpoints, where RFC 6749
 * §3.1 and §3.2 require the server to ignore unrecognized request parameters.
 */
export const IGNORES_UNKNOWN_QUERY = { "x-unknown-query-parameters": "ignored" } as const;

/** The same refusal for a route registered without zod-openapi (/openapi.json, /docs): it takes no query. */
export function noQueryParameters(): MiddlewareHandler {
  return async (c, next) => {
    const result = NO_QUERY.safeParse(Object.fromEntries(new URL(c.req.url).searchParams));
    if (!result.success) throw unknownParameterProblem(result.error) ?? new Problem("bad_request", "Invalid query.");
    await next();
  };
}
