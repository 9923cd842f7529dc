/**
 * The route hook of the query and browse routes: a malformed release id first (its own problem),
 * then every problem of the query string as the one query problem of every route
 * (src/worker/http/query-problem.ts), with the values each listed parameter allows.
 */
import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { type AllowedOf, parameterErrors, queryProblem } from "../http/query-problem";
import { paramProblem } from "./params";

export function queryHook(allowedOf: AllowedOf) {
  return (result: { success: boolean; target: string; error?: unknown }, c: Context): undefined => {
    if (result.success) return undefined;
    if (result.target !== "query") return paramProblem(result, c);
    throw queryProblem(parameterErrors(result.error as z.ZodError, allowedOf));
  };
}
