/**
 * `search_profiles`: the query of GET /v1/profiles as a tool. Its arguments are the route's query
 * parameters as JSON (lists as arrays, `limit` a number); they are checked by the route's own
 * schema (ProfileQueryParams) and run by the route's own engine (runProfileQuery), so the tool
 * and the route accept, refuse and answer the same.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { expectDefined } from "../../common/expect";
import { SORTS, VALUE_FIELDS } from "../../common/catalog/query-fields";
import {
  allowedValuesOf,
  DEFAULT_LIMIT,
  FACETABLE,
  MAX_LIMIT,
  MAX_VALUES,
  ProfileQueryParams,
  profileQueryOf,
} from "../catalog/query-params";
import { parameterErrors } from "../http/query-problem";
import { queryProfiles, releaseOfQuery } from "../catalog/service/query";
import { compactProfile, hrefOf, type McpContext } from "./catalog-reads";
import { registerReadTool } from "./read-tool";
import { CompactProfileSchema, ReleaseIdArgument } from "./schemas";
import { answering, toolAnswer, toolError } from "./tool-result";
import { asDigest } from "../../common/catalog/digest";

const listOf = (allowed: readonly string[] | undefined, what: string) =>
  z
    .array(allowed ? z.enum(allowed as [string, ...string[]]) : z.string())
    .min(1)
    .max(MAX_VALUES)
    .optional()
    .describe(
      `Profiles whose ${what} is any of these.${allowed ? "" : " Keys are lowercase words joined by hyphens."}`,
    );

const SearchArguments = z.strictObject({
  ...Object.fromEntries(VALUE_FIELDS.map((field) => [field.name, listOf(field.allowed, field.matches)])),
  q: z
    .string()
    .optional()
    .describe("Full text: every word must occur in the product or funnel name or key, or a stage's finding."),
  tested_after: z.string().optional().describe("ISO 8601 UTC instant: last_tested_at at or after it."),
  tested_before: z.string().optional().describe("ISO 8601 UTC instant: last_tested_at before it."),
  sort: z.enum(SORTS).optional().describe("Order; default catalog (product key, funnel key)."),
  limit: z.int().min(1).max(MAX_LIMIT).optional().describe(`Profiles per page, default ${DEFAULT_LIMIT}.`),
  facets: z
    .array(z.enum(FACETABLE as [string, ...string[]]))
    .optional()
    .describe("Count all matches by these fields (e.g. grade)."),
  cursor: z
    .string()
    .optional()
    .describe(
      "The next_cursor of the previous page (same arguments otherwise): the search continues in the release it started in.",
    ),
  release_id: ReleaseIdArgument,
});

const SearchOutput = z.strictObject({
  release_id: z.string(),
  count: z.int(),
  profiles: z.array(CompactProfileSchema),
  next_cursor: z.string().nullable(),
  facets: z.record(z.string(), z.record(z.string(), z.int())).optional(),
});

/** The tool's arguments as the route's query string values. */
function queryStringOf(args: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || name === "release_id") continue;
    query[name] = Array.isArray(value) ? value.join(",") : String(value);
  }
  return query;
}

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
        const parsed = ProfileQueryParams.safeParse(queryStringOf(args));
        if (!parsed.success) {
          const lines = parameterErrors(parsed.error, allowedValuesOf).map(
            (e) => `${e.parameter}: ${e.message}${e.allowed ? ` (allowed: ${e.allowed.join(", ")})` : ""}`,
          );
          return toolError(`invalid_parameter: ${lines.join("; ")}`);
        }
        const query = profileQueryOf(parsed.data);
        const manifest = await releaseOfQuery(ctx.env, query, args.release_id);
        const found = await queryProfiles(ctx.env, manifest, query);
        const profiles = found
          .profiles()
          .map((profile, i) =>
            compactProfile(
              profile,
              asDigest(expectDefined(found.rows[i], `row ${i} of the query, one per profile read`).sha256),
              hrefOf(ctx, manifest, profile),
            ),
          );
        const answer = {
          release_id: manifest.release_id,
          count: found.count,
          profiles,
          next_cursor: found.nextCursor ?? null,
          ...(found.facets ? { facets: found.facets } : {}),
        };
        const more = found.nextCursor ? "; pass next_cursor as cursor for more" : "";
        return toolAnswer(
          answer,
          `${found.count} profile(s) match in release ${manifest.release_id}; ${profiles.length} shown${more}.`,
        );
      }),
  );
}
