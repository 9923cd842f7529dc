/**
 * The query parameters of GET /v1/profiles (docs/contract.md, "Querying the catalog"), as one strict
 * zod schema: the route's validation and its OpenAPI parameters. A request that fails gets one 400
 * listing every problem as `{parameter, message, allowed?}`.
 */
import { z } from "@hono/zod-openapi";
import {
  FACET_FIELDS,
  SORTS,
  VALUE_FIELDS,
  wordsOf,
  type Sort,
  type ValueField,
} from "../../common/catalog/query-fields";
import { KEY_PATTERN } from "../../common/catalog/schema";
import type { QueryFilter, TimeBound } from "../../common/catalog/query-filter";
import { atOrAfterOperator, beforeOperator, type Instant, instantParam } from "../http/instant";
import { cursorParam } from "../http/cursor";
import { limitParam } from "../http/limit-param";
import { type ParameterError, parameterErrors } from "../http/query-problem";
import { strictQuery } from "../http/strict-query";

export const MAX_VALUES = 50;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
const MAX_Q = 200;

const ONCE = { error: "must be given once (send several values as one comma-separated list)" };
const ENTITY_PATTERN = /^ent_[a-z0-9]{26}$/;

const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The pattern of a comma-separated list of `allowed` values, for the OpenAPI document. */
const listPattern = (allowed: readonly string[]) => {
  const one = `(${allowed.map(escapeRegex).join("|")})`;
  return `^${one}(,${one})*$`;
};

/** A comma-separated list (any of), each value allowed or of the field's key format; at most MAX_VALUES. */
function listParam(name: string, description: string, allowed?: readonly string[], format?: RegExp) {
  return z
    .string(ONCE)
    .transform((text, ctx) => {
      const values = text.split(",");
      if (values.length > MAX_VALUES)
        ctx.addIssue({ code: "custom", message: `at most ${MAX_VALUES} values, got ${values.length}` });
      for (const value of new Set(values)) {
        if (allowed ? !allowed.includes(value) : format && !format.test(value))
          ctx.addIssue({
            code: "custom",
            message: allowed
              ? `${JSON.stringify(value.slice(0, 80))} is not an allowed value`
              : `${JSON.stringify(value.slice(0, 80))} is not a ${name === "entity" ? "entity id (ent_ and 26 lowercase letters or digits)" : "key (lowercase words joined by hyphens)"}`,
          });
      }
      return [...new Set(values)];
    })
    .optional()
    .openapi({
      param: { name, in: "query" },
      description: allowed ? `${description} Allowed: ${allowed.map((v) => `\`${v}\``).join(", ")}.` : description,
      type: "string",
      pattern: allowed ? listPattern(allowed) : undefined,
    });
}

const fieldParam = (field: ValueField) =>
  listParam(
    field.name,
    `Profiles whose ${field.matches} is any of these (comma-separated, at most ${MAX_VALUES}).`,
    field.allowed,
    field.name === "entity" ? ENTITY_PATTERN : KEY_PATTERN,
  );

/** `limit` of the query and browse routes: 1–MAX_LIMIT entries per page. */
export const catalogLimitParam = (what: string) => limitParam({ what, max: MAX_LIMIT, default: DEFAULT_LIMIT });

/**
 * An ISO 8601 UTC instant (`Z`), as `last_tested_at` is written. `example` only where it alone makes
 * a valid query: tested_after's and tested_before's together would contradict.
 */
const utcInstantParam = (name: string, description: string, example?: string) =>
  instantParam({ utcOnly: true })
    .optional()
    .openapi({ param: { name, in: "query" }, description, ...(example ? { example } : {}) });

export const CursorParam = cursorParam("cursor");

export const FACETABLE = FACET_FIELDS.map((field) => field.name);

export const ProfileQueryParams = strictQuery({
  ...Object.fromEntries(VALUE_FIELDS.map((field) => [field.name, fieldParam(field)])),
  tested_after: utcInstantParam(
    "tested_after",
    "Profiles with `last_tested_at` at or after this instant.",
    "2026-11-01T00:00:00Z",
  ),
  tested_before: utcInstantParam("tested_before", "Profiles with `last_tested_at` before this instant."),
  q: z
    .string(ONCE)
    .max(MAX_Q, `must be at most ${MAX_Q} characters`)
    .refine((text) => wordsOf(text).length > 0, "must contain a word (letters or digits)")
    .optional()
    .openapi({
      param: { name: "q", in: "query" },
      description:
        "Full text: every word must occur (case-insensitive; the last word may be a prefix) in the product or funnel name or key, or in a stage's finding or condition.",
      example: "payments",
    }),
  sort: z
    .enum(SORTS, { error: `must be one of ${SORTS.join(", ")}` })
    .default("catalog")
    .openapi({
      param: { name: "sort", in: "query" },
      description:
        "`catalog` (product key, funnel key), `grade` (best first), `-grade` (worst first), `last_tested_at` (oldest first), `-last_tested_at` (newest first). Ties fall back to catalog order.",
    }),
  limit: catalogLimitParam("Profiles"),
  facets: listParam(
    "facets",
    "Add counts over all matches for these fields (comma-separated); `product` and `funnel` give their 100 largest values.",
    FACETABLE,
  ),
  cursor: CursorParam,
});

export interface ProfileQuery {
  /** Filter name → the values any of which must match. */
  filters: Map<string, string[]>;
  q?: string;
  testedAfter?: Instant;
  testedBefore?: Instant;
  sort: Sort;
  limit: number;
  facets: string[];
  cursor?: string;
}

export function profileQueryOf(params: Record<string, unknown>): ProfileQuery {
  const filters = new Map<string, string[]>();
  for (const field of VALUE_FIELDS) {
    const values = params[field.name] as string[] | undefined;
    if (values) filters.set(field.name, values);
  }
  return {
    filters,
    q: params.q as string | undefined,
    testedAfter: params.tested_after as Instant | undefined,
    testedBefore: params.tested_before as Instant | undefined,
    sort: params.sort as Sort,
    limit: params.limit as number,
    facets: (params.facets as string[] | undefined) ?? [],
    cursor: params.cursor as string | undefined,
  };
}

export type ReadProfileQuery = { ok: true; query: ProfileQuery } | { ok: false; errors: ParameterError[] };

/**
 * The query of a GET /v1/profiles query string, parsed as the route parses it (`schema`: the route's
 * own, or a door's subset of it), with `fixed` values the door sets itself, or every problem with
 * it as the route lists them. The query string is the catalog query's one input format: REST
 * receives it, the explorer's URL and a watch's `query` are it, and MCP's `search_profiles` writes
 * its arguments as it, because its `next` is the route's URL carrying them.
 */
export function readProfileQuery(
  parameters: Record<string, string | string[]>,
  schema: z.ZodType<Record<string, unknown>> = ProfileQueryParams,
  fixed: Partial<Record<keyof typeof ProfileQueryParams.shape, unknown>> = {},
): ReadProfileQuery {
  const parsed = schema.safeParse(parameters);
  if (!parsed.success) return { ok: false, errors: parameterErrors(parsed.error, allowedValuesOf) };
  return { ok: true, query: profileQueryOf({ ...parsed.data, ...fixed }) };
}

/** Values a parameter allows, for the `allowed` of its error entries. */
export function allowedValuesOf(parameter: string): readonly string[] | undefined {
  if (parameter === "sort") return SORTS;
  if (parameter === "facets") return FACETABLE;
  return VALUE_FIELDS.find((field) => field.name === parameter)?.allowed;
}

/** The `last_tested_at` bounds of a query, as stored times compare (a finer bound compares strictly). */
export function timeBoundsOf(query: Pick<ProfileQuery, "testedAfter" | "testedBefore">): TimeBound[] {
  const { testedAfter, testedBefore } = filterOf({ filters: new Map(), ...query });
  return [testedAfter, testedBefore].filter((bound) => bound !== undefined);
}

const boundOf = (instant: Instant, operator: (instant: Instant) => TimeBound["operator"]): TimeBound => ({
  operator: operator(instant),
  value: instant.utcMillis,
});

/** The filter part of a query as data: what a watch keeps and evaluates at each publish. */
export function filterOf(query: Pick<ProfileQuery, "filters" | "q" | "testedAfter" | "testedBefore">): QueryFilter {
  return {
    filters: [...query.filters],
    ...(query.q === undefined ? {} : { q: query.q }),
    ...(query.testedAfter ? { testedAfter: boundOf(query.testedAfter, atOrAfterOperator) } : {}),
    ...(query.testedBefore ? { testedBefore: boundOf(query.testedBefore, beforeOperator) } : {}),
  };
}
