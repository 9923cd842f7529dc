/**
 * `search` and `fetch`, the two tools ChatGPT's connectors and deep research look for, exactly as
 * OpenAI's MCP contract defines them: `search({query})` answers `{results: [{id, title, url}]}` and
 * `fetch({id})` answers `{id, title, text, url, metadata}`, each as one text content item holding
 * the JSON object (and the same object as structured content). The query is the full-text `q` of
 * the catalog query (search_profiles); a document is one profile of the current release, `text` its
 * bytes and `url` its pinned REST URL: the same data as get_profile.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { PROFILE_ID_PATTERN, type Profile } from "../../common/catalog/schema";
import { readProfileQuery } from "../catalog/query-params";
import { readProfile } from "../catalog/service/profile";
import { queryProfiles } from "../catalog/service/query";
import { resolveRelease } from "../catalog/service/release";
import { hrefOf, type McpContext } from "./catalog-reads";
import { bounded } from "./output-budget";
import { registerReadTool } from "./read-tool";
import { answering, toolError } from "./tool-result";

const SearchArguments = z.strictObject({
  query: z
    .string()
    .describe(
      "Words every matching profile contains (product or funnel name or key, or a stage's finding), e.g. payments.",
    ),
});

const SearchOutput = z.strictObject({
  results: z.array(
    z.strictObject({
      id: z.string().describe("The profile's id: pass it to fetch."),
      title: z.string(),
      url: z.string().describe("The profile's pinned REST URL, to cite."),
    }),
  ),
});

const FetchArguments = z.strictObject({
  id: z.string().regex(PROFILE_ID_PATTERN, "must be an id that search gave (arp_ and 26 lowercase letters or digits)"),
});

const FetchOutput = z.strictObject({
  id: z.string(),
  title: z.string(),
  text: z.string().describe("The profile document, exactly its bytes (JSON)."),
  url: z.string().describe("The profile's pinned REST URL, whose bytes have metadata.sha256."),
  metadata: z.strictObject({
    release_id: z.string(),
    sha256: z.string(),
    product: z.string(),
    funnel: z.string(),
    grade: z.string(),
    overall_outcome: z.string(),
  }),
});

const titleOf = (profile: Profile) =>
  `${profile.scope.product.name} (${profile.scope.funnel.name}): grade ${profile.grade}, ${profile.state_label}`;

/** OpenAI's shape: one text item holding exactly the JSON object, and the object as structured content. */
const jsonAnswer = (answer: Record<string, unknown>): CallToolResult => ({
  structuredContent: answer,
  content: [{ type: "text", text: JSON.stringify(answer) }],
});

export function registerSearchFetchTools(server: McpServer, ctx: McpContext) {
  registerReadTool(
    server,
    "search",
    {
      title: "Search the catalog (for connectors)",
      description:
        "Full-text search of the current release's readiness profiles (every word must occur); up to 20 results, each an id to fetch, " +
        "a title and the profile's URL. For filters, sorting, counts and paging use search_profiles.",
      inputSchema: SearchArguments,
      outputSchema: SearchOutput,
    },
    (args) =>
      answering(async () => {
        const read = readProfileQuery({ q: args.query });
        if (!read.ok) return toolError(`invalid_parameter: query: ${read.errors.map((e) => e.message).join("; ")}`);
        const manifest = await resolveRelease(ctx.env.CATALOG_KV);
        const found = await queryProfiles(ctx.env, manifest, read.query);
        const results = found.profiles().map((profile) => ({
          id: profile.agent_readiness_profile_id,
          title: titleOf(profile),
          url: hrefOf(ctx, manifest, profile),
        }));
        return jsonAnswer({ results });
      }),
  );

  registerReadTool(
    server,
    "fetch",
    {
      title: "Fetch one profile (for connectors)",
      description:
        "The whole readiness profile with this id (from search) in the current release: its document as text, its pinned URL, " +
        "and its release id and sha256 to cite. Same data as get_profile.",
      inputSchema: FetchArguments,
      outputSchema: FetchOutput,
    },
    (args) =>
      answering(async () => {
        const manifest = await resolveRelease(ctx.env.CATALOG_KV);
        const { profile, text, sha256 } = await readProfile(ctx.env, manifest, { id: args.id });
        const metadata = {
          release_id: manifest.release_id,
          sha256,
          product: profile.scope.product.key,
          funnel: profile.scope.funnel.key,
          grade: profile.grade,
          overall_outcome: profile.overall_outcome,
        };
        const document = { id: args.id, title: titleOf(profile), text, url: hrefOf(ctx, manifest, profile), metadata };
        return bounded(jsonAnswer(document), "this profile");
      }),
  );
}
