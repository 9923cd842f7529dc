/**
 * `describe_catalog`: what a model needs before it asks anything: the current release, its size,
 * its funnels, the grade and outcome distribution (the query engine's facets), and how to cite.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { profileQueryOf } from "../catalog/query-params";
import { STAGES } from "../../common/catalog/schema";
import { queryProfiles } from "../catalog/service/query";
import { resolveRelease } from "../catalog/service/release";
import type { McpContext } from "./catalog-reads";
import { registerReadTool } from "./read-tool";
import { answering, toolAnswer } from "./tool-result";

const Counts = z.record(z.string(), z.int());

const DescribeOutput = z.strictObject({
  release_id: z.string(),
  published_at: z.string(),
  profile_count: z.int(),
  stages: z.array(z.string()),
  funnels: Counts.describe("Profiles per funnel key (the 100 largest funnels)."),
  grades: Counts,
  overall_outcomes: Counts,
  citation: z.string(),
});

const FACETS = ["funnel", "grade", "overall_outcome"];

export function registerDescribeTool(server: McpServer, ctx: McpContext) {
  registerReadTool(
    server,
    "describe_catalog",
    {
      title: "Describe the readiness catalog",
      description:
        "The current release of the catalog: its id, when it was published, how many profiles, its funnels, how grades and outcomes " +
        "are distributed, and how to cite a profile. Call it first.",
      inputSchema: z.strictObject({}),
      outputSchema: DescribeOutput,
    },
    () =>
      answering(async () => {
        const manifest = await resolveRelease(ctx.env.CATALOG_KV);
        const counts = await queryProfiles(
          ctx.env,
          manifest,
          profileQueryOf({ sort: "catalog", limit: 1, facets: FACETS }),
        );
        const facets = counts.facets ?? {};
        const answer = {
          release_id: manifest.release_id,
          published_at: manifest.published_at,
          profile_count: counts.count,
          stages: [...STAGES],
          funnels: facets.funnel ?? {},
          grades: facets.grade ?? {},
          overall_outcomes: facets.overall_outcome ?? {},
          citation:
            "Cite a profile by the release_id and the profile's sha256 (both in every answer); its href is the pinned URL whose " +
            "bytes have that sha256, in that release, for as long as the release is kept.",
        };
        return toolAnswer(answer, `Release ${manifest.release_id}: ${counts.count} profiles.`);
      }),
  );
}
