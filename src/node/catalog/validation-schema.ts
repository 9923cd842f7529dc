/**
 * zod issues of the Profile schema as report entries (rule `schema`): one entry per issue, one per
 * unknown field, each with the JSON path and the value found there.
 */
import type { z } from "@hono/zod-openapi";
import { Profile } from "../../common/catalog/schema";
import { describe, formatPath, oneOf, valueAt, type RuleViolation } from "./validation-report";

type Issue = z.core.$ZodIssue;

export function schemaViolations(value: unknown): RuleViolation[] {
  const result = Profile.safeParse(value);
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => violationsOf(issue, value));
}

function violationsOf(issue: Issue, root: unknown): RuleViolation[] {
  const found = valueAt(root, issue.path);
  const path = formatPath(issue.path);
  const violation = (message: string, expected: string): RuleViolation[] => [
    {
      rule: "schema",
      path,
      message: found === undefined ? "missing required field" : message,
      expected,
      found: describe(found),
    },
  ];
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => ({
        rule: "schema",
        path: formatPath([...issue.path, key]),
        message: `unknown field "${key}"`,
        expected: `no field "${key}" (the schema is strict: known fields only)`,
        found: describe((found as Record<string, unknown>)[key]),
      }));
    case "invalid_type":
      return [
        {
          rule: "schema",
          path,
          message: found === undefined ? "missing required field" : `must be ${article(issue.expected)}`,
          expected: issue.expected,
          found: found === undefined ? "(missing)" : `${jsonTypeOf(found)} ${describe(found)}`,
        },
      ];
    case "invalid_value":
      return violation("not a known value (a new value is a deliberate schema change)", oneOf(issue.values));
    case "too_small":
    case "too_big":
      return violation(issue.message, boundOf(issue));
    case "invalid_format":
      return violation("wrong format", issue.message.replace(/^must be /, ""));
    default:
      return violation(issue.message, issue.message.replace(/^must be /, "").replace(/^is not /, ""));
  }
}

function boundOf(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const bound = issue.code === "too_small" ? issue.minimum : issue.maximum;
  const relation = issue.code === "too_small" ? (issue.inclusive ? "≥" : ">") : issue.inclusive ? "≤" : "<";
  const what = issue.origin === "string" ? "length" : issue.origin === "array" ? "item count" : "value";
  return `${what} ${relation} ${String(bound)}`;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
