/**
 * The one 400 of a query string, on every route (docs/contract.md, "Query parameters"): every
 * problem at once in `errors[]`, one entry per parameter, each `{parameter, path, message, code,
 * allowed?}` whose `code` is documented at /docs/errors, never the validation library's:
 * `unknown_parameter` (a parameter the route does not take), `invalid_cursor` (a paging cursor not
 * taken from a page of the list) or `invalid_parameter` (any other value the route refuses). The
 * problem's own code is `unknown_parameter` when any parameter is unknown, `invalid_cursor` when the
 * cursor is the only problem, else `invalid_parameter`.
 */
import type { z } from "@hono/zod-openapi";
import { Problem } from "./problem";

/** The parameters that carry a place in a list: a cursor, or (Stripe style) an id to start after or end before. */
const CURSOR_PARAMETERS: readonly string[] = ["cursor", "after", "starting_after", "ending_before"];

export const isCursorParameter = (name: string) => CURSOR_PARAMETERS.includes(name);

type EntryCode = "unknown_parameter" | "invalid_parameter" | "invalid_cursor";

export interface ParameterError {
  parameter: string;
  /** The same name, as `bad_request` entries call it, so one reader handles both problems. */
  path: string;
  message: string;
  code: EntryCode;
  /** The values the parameter takes, where the route lists them. */
  allowed?: readonly string[];
}

type QueryIssue = z.ZodError["issues"][number];
export type AllowedOf = (parameter: string) => readonly string[] | undefined;

/** The entry of a known parameter's value the route refuses. */
export function invalidValueError(parameter: string, message: string, allowed?: readonly string[]): ParameterError {
  const code = isCursorParameter(parameter) ? "invalid_cursor" : "invalid_parameter";
  return { parameter, path: parameter, message, code, ...(allowed ? { allowed } : {}) };
}

const unknownErrors = (issue: QueryIssue): ParameterError[] =>
  issue.code === "unrecognized_keys"
    ? issue.keys.map((key) => ({
        parameter: key,
        path: key,
        message: `unknown query parameter "${key}": ${issue.message}`,
        code: "unknown_parameter" as const,
      }))
    : [];

/** The values an enum parameter takes, as zod lists them. */
const enumValuesOf = (issue: QueryIssue) => (issue.code === "invalid_value" ? issue.values.map(String) : undefined);

/** Every problem of the query, the unknown parameters first, then one entry per known parameter. */
export function parameterErrors(error: z.ZodError, allowedOf: AllowedOf = () => undefined): ParameterError[] {
  const byParameter = new Map<string, QueryIssue[]>();
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") continue;
    const parameter = String(issue.path[0] ?? "");
    byParameter.set(parameter, [...(byParameter.get(parameter) ?? []), issue]);
  }
  const known = [...byParameter].map(([parameter, issues]) =>
    invalidValueError(
      parameter,
      [...new Set(issues.map((issue) => issue.message))].join("; "),
      allowedOf(parameter) ?? issues.map(enumValuesOf).find((values) => values !== undefined),
    ),
  );
  return [...error.issues.flatMap(unknownErrors), ...known];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The problem of these entries (at least one). */
export function queryProblem(errors: ParameterError[]): Problem {
  const unknown = errors.filter((e) => e.code === "unknown_parameter");
  if (unknown.length > 0) {
    const names = unknown.map((e) => JSON.stringify(e.parameter)).join(", ");
    const accepted = unknown[0]?.message.replace(/^[^:]*: /, "") ?? "";
    const others = errors.length - unknown.length;
    const more = others === 0 ? "" : ` ${plural(others, "more problem")} in errors[].`;
    const lead = unknown.length === 1 ? "Unknown query parameter" : `${unknown.length} unknown query parameters`;
    return new Problem("unknown_parameter", `${lead} ${names}: ${accepted}.${more}`, { extra: { errors } });
  }
  const code = errors.every((e) => e.code === "invalid_cursor") ? "invalid_cursor" : "invalid_parameter";
  const lines = errors.map((e) => `${e.parameter}: ${e.message}`);
  const [first] = lines;
  const detail =
    errors.length === 1 && first ? first : `${errors.length} problems in the query string: ${lines.join("; ")}`;
  return new Problem(code, detail, { extra: { errors } });
}

/** The 400 of one refused cursor (or Stripe-style id), e.g. one this list never handed out. */
export const cursorProblem = (parameter: string, message: string) =>
  queryProblem([invalidValueError(parameter, message)]);
