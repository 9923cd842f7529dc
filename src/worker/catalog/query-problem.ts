/**
 * The one 400 of the query routes: every problem of the query string at once, as
 * `errors[]` of `{parameter, message, allowed?}`. Unknown parameters make it the app's one
 * `unknown_parameter` problem (src/worker/http/strict-query.ts), listing the other problems after
 * them; else its code is `invalid_cursor` when the cursor is the only problem, else `invalid_parameter`.
 */
import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { Problem } from "../http/problem";
import { type QueryProblemEntry, unknownParameterEntries, unknownParameterProblem } from "../http/strict-query";
import { paramProblem } from "./params";

export type ParameterError = QueryProblemEntry;
type AllowedOf = (parameter: string) => readonly string[] | undefined;

/** A problem of a known parameter, with the values it takes when there is a list. */
const knownParameterError =
  (allowedOf: AllowedOf) =>
  (issue: z.ZodError["issues"][number]): ParameterError => {
    const parameter = String(issue.path[0] ?? "");
    const allowed = allowedOf(parameter);
    return { parameter, path: parameter, message: issue.message, code: issue.code, ...(allowed ? { allowed } : {}) };
  };

/** Every problem of the query, the unknown parameters first, as on every other route. */
export function parameterErrors(error: z.ZodError, allowedOf: AllowedOf): ParameterError[] {
  return [
    ...error.issues.flatMap(unknownParameterEntries),
    ...error.issues.filter((issue) => issue.code !== "unrecognized_keys").map(knownParameterError(allowedOf)),
  ];
}

/** The 400 of a query whose parameters are all known: `invalid_cursor` or `invalid_parameter`. */
export function parameterProblem(errors: ParameterError[]): Problem {
  const code = errors.every((e) => e.parameter === "cursor") ? "invalid_cursor" : "invalid_parameter";
  const lines = errors.map((e) => `${e.parameter}: ${e.message}`);
  const [first] = lines;
  const detail =
    errors.length === 1 && first ? first : `${errors.length} problems in the query string: ${lines.join("; ")}`;
  return new Problem(code, detail, { extra: { errors } });
}

/** Route hook: a malformed release id first (its own problem), then every query problem. */
export function queryHook(allowedOf: AllowedOf) {
  return (result: { success: boolean; target: string; error?: unknown }, c: Context): undefined => {
    if (result.success) return undefined;
    if (result.target !== "query") return paramProblem(result, c);
    const error = result.error as z.ZodError;
    throw (
      unknownParameterProblem(error, knownParameterError(allowedOf)) ??
      parameterProblem(parameterErrors(error, allowedOf))
    );
  };
}
