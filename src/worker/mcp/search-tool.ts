/**
 * `search_profiles`: the query of GET /v1/profiles as a tool. Its arguments are the route's query
 * parameters, derived from the route's one schema (ProfileQueryParams) as JSON (lists as arrays,
 * `limit` a number). They are written as the route's query string, the catalog query's one input
 * format, and read by the same function as every door's (readProfileQuery), so the tool and the
 * route accept, refuse and answer the same; that query string is also what the answer's `next`
 * (the route's pinned URL of the next page, list-answer.ts) carries.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { expectDefined } from "../../common/expect";
import { SORTS, VALUE_FIELDS } from "../../common/catalog/query-fields";
import {
  allowedValuesOf,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  MAX_VALUES,
  ProfileQueryParams,
  readProfileQuery,
} from "../catalog/query-params";
import { invalidValueError, type ParameterError } from "../http/query-problem";
import { pinnedQueryPath, type QueriedProfiles, queryProfiles, releaseOfQuery } from "../catalog/service/query";
import { hrefOf, type McpContext, profileEntry } from "./catalog-reads";
import { toolListPage, toolListSchema } from "./list-answer";
import { registerReadTool } from "./read-tool";
import { DetailArgument, ProfileEntrySchema, ReleaseIdArgument } from "./schemas";
import { boundedPage } from "./output-budget";
import { answering, toolAnswer, toolError } from "./tool-result";
import { asDigest } from "../../common/catalog/digest";

type QueryParameter = keyof typeof ProfileQueryParams.shape;

const LIST_PARAMETERS = new Set<string>([...VALUE_FIELDS.map((field) => field.name), "facets"]);

/** What the one schema's parameters that are not field filters mean, in a model's words. */
const MEANING: Partial<Record<QueryParameter, string>> = {
  q: "Full text: every word must occur in the product or funnel name or key, or a stage's finding.",
  tested_after: "ISO 8601 UTC instant: last_tested_at at or after it.",
  tested_before: "ISO 8601 UTC instant: last_tested_at before it.",
  sort: "Order; default catalog (product key, funnel key).",
  limit: `Profiles per page, 1–${MAX_LIMIT}, default ${DEFAULT_LIMIT}.`,
  facets: "Count all matches by these fields (e.g. grade).",
  cursor:
    "The next_cursor of the previous page (same arguments otherwise): the search continues in the release it started in.",
};

/** One parameter of the route's schema as a JSON argument: the type a model sends it as. */
function argumentOf(name: QueryParameter) {
  const allowed = allowedValuesOf(name);
  const meaning =
    MEANING[name] ?? `Profiles whose ${VALUE_FIELDS.find((f) => f.name === name)?.matches} is any of these.`;
  if (LIST_PARAMETERS.has(name))
    return z
      .array(allowed ? z.enum(allowed as [string, ...string[]]) : z.string())
      .min(1)
      .max(MAX_VALUES)
      .optional()
      .describe(allowed ? meaning : `${meaning} Keys are lowercase words joined by hyphens.`);
  if (name === "limit") return z.int().min(1).max(MAX_LIMIT).optional().describe(meaning);
  if (name === "sort") return z.enum(SORTS).optional().describe(meaning);
  return z.string().optional().describe(meaning);
}

const QUERY_PARAMETERS = Object.keys(ProfileQueryParams.shape) as QueryParameter[];

const SearchArguments = z.strictObject({
  ...Object.fromEntries(QUERY_PARAMETERS.map((name) => [name, argumentOf(name)])),
  release_id: ReleaseIdArgument,
  detail: DetailArgument,
});

const SearchOutput = toolListSchema(ProfileEntrySchema, {
  release_id: z.string(),
  count: z.int().describe("Every profile the query matches, on all pages."),
  facets: z.record(z.string(), z.record(z.string(), z.int())).optional(),
});

/**
 * The arguments as the route's query string (lists comma-separated), or the list values that would
 * not survive it: a value holding a comma would be read as several.
 */
function queryParametersOf(args: Record<string, unknown>): URLSearchParams | ParameterError[] {
  const parameters = new URLSearchParams();
  const errors: ParameterError[] = [];
  for (const name of QUERY_PARAMETERS) {
    const value = args[name];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    for (const one of values.filter((text) => Array.isArray(value) && text.includes(",")))
      errors.push(
        invalidValueError(name, `${JSON.stringify(one.slice(0, 80))} holds a comma: give each value as its own item`),
      );
    parameters.set(name, values.join(","));
  }
  return errors.length > 0 ? errors : parameters;
}

/** The tool error of the query's problems, each as the route's 400 lists it. */
const invalidParameters = (errors: ParameterError[]) =>
  toolError(
    `invalid_parameter: ${errors
      .map((e) => `${e.parameter}: ${e.message}${e.allowed ? ` (allowed: ${e.allowed.join(", ")})` : ""}`)
      .join("; ")}`,
  );

export function registerSearchTool(server: McpServer, ctx: McpContext) {
  registerReadTool(
    server,
    "search_profiles",
    {
      title: "Search readiness profiles",
      description:
        "Find API products by how ready they are for automated agents: filter (e.g. stage.pay=ready, grade, product, q), sort, page and count. " +
        "Each result is one product in one funnel, with its grade, overall outcome, the state of its five stages (evaluate, sign_up, pay, provision, operate), " +
        "its headline finding, and href + sha256 to cite it. Same query as GET /v1/profiles.",
      inputSchema: SearchArguments,
      outputSchema: SearchOutput,
    },
    (args) =>
      answering(async () => {
        const parameters = queryParametersOf(args);
        if (Array.isArray(parameters)) return invalidParameters(parameters);
        const read = readProfileQuery(Object.fromEntries(parameters));
        if (!read.ok) return invalidParameters(read.errors);
        const { query } = read;
        const manifest = await releaseOfQuery(ctx.env, query, args.release_id);
        const nextUrl = (cursor: string) => {
          const next = new URLSearchParams(parameters);
          next.set("cursor", cursor);
          return `${ctx.origin}${pinnedQueryPath(manifest.release_id, next)}`;
        };
        const answerOf = (found: QueriedProfiles) => {
          const data = found
            .profiles()
            .map((profile, i) =>
              profileEntry(
                profile,
                asDigest(expectDefined(found.rows[i], `row ${i} of the query, one per profile read`).sha256),
                hrefOf(ctx, manifest, profile),
                args.detail,
              ),
            );
          const answer = {
            ...toolListPage(data, found.nextCursor ?? null, nextUrl),
            release_id: manifest.release_id,
            count: found.count,
            ...(found.facets ? { facets: found.facets } : {}),
          };
          const more = found.nextCursor ? "; pass next_cursor as cursor for more" : "";
          return toolAnswer(
            answer,
            `${found.count} profile(s) match in release ${manifest.release_id}; ${data.length} shown${more}.`,
          );
        };
        return boundedPage(query.limit, (limit) => queryProfiles(ctx.env, manifest, { ...query, limit }), answerOf);
      }),
  );
}
