/**
 * The one mechanism that refuses unknown query parameters (docs/contract.md "Query parameters"):
 * every route declares its query with `strictQuery({...})` (or `NO_QUERY`), which lists the
 * accepted parameters in /openapi.json and makes any other parameter a 400 `unknown_parameter`
 * naming each one, never silently ignored. The app's default hook turns the failure into that
 * problem (validation-problem.ts, query-problem.ts); a route hook of its own starts with
 * `rejectUnknownQuery(result)`.
 */
import { type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { parameterErrors, queryProblem } from "./query-problem";

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

/** First line of a route hook of its own: a query naming parameters the route does not take is thrown. */
export function rejectUnknownQuery(result: { target: string; success: boolean; error?: unknown }): void {
  if (result.success || result.target !== "query" || !(result.error instanceof z.ZodError)) return;
  const errors = parameterErrors(result.error);
  if (errors.some((entry) => entry.code === "unknown_parameter")) throw queryProblem(errors);
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
    if (!result.success) throw queryProblem(parameterErrors(result.error));
    await next();
  };
}
