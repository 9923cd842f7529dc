/**
 * A request that fails its route's zod schemas becomes one 400 problem listing every issue, as
 * the catalog build reports every violation. A query string is the query problem of every route
 * (query-problem.ts); any other part (body, form, path, headers) is `bad_request`, whose `errors`
 * hold one `{path, message, code: "bad_request"}` per field (an unknown field is an entry of its
 * own), and `detail` sums them up in one readable line.
 */
import type { z } from "@hono/zod-openapi";
import { Problem } from "./problem";
import { parameterErrors, queryProblem } from "./query-problem";

export interface ValidationError {
  /** Dotted path inside the part of the request that failed (`scopes.0`, `name`); "" for the whole part. */
  path: string;
  message: string;
  /** Always the problem's code: the path says which field, the message what is wrong with it. */
  code: "bad_request";
}

const PART_NAMES: Record<string, string> = {
  json: "the request body",
  form: "the form",
  param: "the path",
  header: "the headers",
  cookie: "the cookies",
};

/** One entry per field: an unknown field each on its own, several issues of one field joined. */
function validationErrors(error: z.ZodError): ValidationError[] {
  const byPath = new Map<string, string[]>();
  const add = (path: string, message: string) => byPath.set(path, [...(byPath.get(path) ?? []), message]);
  for (const issue of error.issues) {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys")
      for (const key of issue.keys) add(path ? `${path}.${key}` : key, `unknown field "${key}"`);
    else add(path, issue.message);
  }
  return [...byPath].map(([path, messages]) => ({
    path,
    message: [...new Set(messages)].join("; "),
    code: "bad_request",
  }));
}

export function validationProblem(error: z.ZodError, target: string): Problem {
  if (target === "query") return queryProblem(parameterErrors(error));
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
