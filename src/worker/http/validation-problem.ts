/**
 * A request that fails its route's zod schemas becomes one 400 problem listing every issue, as
 * the catalog build reports every violation: `errors` holds `{path, message, code}` per issue
 * (an unknown field is one entry per field), and `detail` sums them up in one readable line.
 */
import type { z } from "@hono/zod-openapi";
import { Problem } from "./problem";
import { unknownParameterProblem } from "./strict-query";

export interface ValidationError {
  /** Dotted path inside the part of the request that failed (`scopes.0`, `limit`); "" for the whole part. */
  path: string;
  message: string;
  /** zod's issue code, e.g. `invalid_value`, `too_small`, `unrecognized_keys`. */
  code: string;
}

const PART_NAMES: Record<string, string> = {
  json: "the request body",
  form: "the form",
  query: "the query string",
  param: "the path",
  header: "the headers",
  cookie: "the cookies",
};

function validationErrors(error: z.ZodError): ValidationError[] {
  return error.issues.flatMap((issue): ValidationError[] => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: path ? `${path}.${key}` : key,
        message: `unknown field "${key}"`,
        code: issue.code,
      }));
    }
    return [{ path, message: issue.message, code: issue.code }];
  });
}

export function validationProblem(error: z.ZodError, target: string): Problem {
  const unknown = target === "query" ? unknownParameterProblem(error) : null;
  if (unknown) return unknown;
  const { detail, errors } = validationFindings(error, target);
  return new Problem("bad_request", detail, { extra: { errors } });
}

/** The `detail` and `errors` of a 400 `bad_request`, as data (a Durable Object returns them across RPC). */
export function validationFindings(error: z.ZodError, target: string): { detail: string; errors: ValidationError[] } {
  const errors = validationErrors(error);
  const where = PART_NAMES[target] ?? "the request";
  const lines = errors.map((entry) => `${entry.path || where}: ${entry.message}`);
  const [only, ...others] = lines;
  const detail =
    only !== undefined && others.length === 0 ? only : `${errors.length} problems in ${where}: ${lines.join("; ")}`;
  return { detail, errors };
}
