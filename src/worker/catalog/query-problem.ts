/**
 * The one 400 of the query routes: every problem of the query string at once, as
 * `errors[]` of `{parameter, message, allowed?}`. Its code is `unknown_parameter` when any parameter
 * is unknown, else `invalid_cursor` when the cursor is the only problem, else `invalid_parameter`.
 */
import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { Problem } from "../http/problem";
import { paramProblem } from "./params";

export interface ParameterError {
  parameter: string;
  /** The same name: every 400's `errors[]` entries carry `path` and zod's `code` (strict-query.ts). */
  path: string;
  message: string;
  code: string;
  allowed?: readonly string[];
}

export function parameterErrors(
  error: z.ZodError,
  allowedOf: (parameter: string) => readonly string[] | undefined,
): ParameterError[] {
  const errors = error.issues.flatMap((issue): ParameterError[] => {
    if (issue.code === "unrecognized_keys")
      return issue.keys.map((key) => ({
        parameter: key,
        path: key,
        message: `unknown parameter ${JSON.stringify(key)}`,
        code: issue.code,
      }));
    const parameter = String(issue.path[0] ?? "");
    const allowed = allowedOf(parameter);
    return [{ parameter, path: parameter, message: issue.message, code: issue.code, ...(allowed ? { allowed } : {}) }];
  });
  // The unknown parameters first, as on every other route.
  return [
    ...errors.filter((entry) => entry.code === "unrecognized_keys"),
    ...errors.filter((entry) => entry.code !== "unrecognized_keys"),
  ];
}

export function parameterProblem(errors: ParameterError[]): Problem {
  const code = errors.some((e) => e.message.startsWith("unknown parameter"))
    ? "unknown_parameter"
    : errors.every((e) => e.parameter === "cursor")
      ? "invalid_cursor"
      : "invalid_parameter";
  const lines = errors.map((e) => `${e.parameter}: ${e.message}`);
  const [first] = lines;
  const detail =
    errors.length === 1 && first ? first : `${errors.length} problems in the query string: ${lines.join("; ")}`;
  return new Problem(code, detail, { extra: { errors } });
}

/** Route hook: a malformed release id first (its own problem), then every query problem. */
export function queryHook(allowedOf: (parameter: string) => readonly string[] | undefined) {
  return (result: { success: boolean; target: string; error?: unknown }, c: Context): undefined => {
    if (result.success) return undefined;
    if (result.target !== "query") return paramProblem(result, c);
    throw parameterProblem(parameterErrors(result.error as z.ZodError, allowedOf));
  };
}
