/**
 * `profile_history` and `compare_releases` (docs/mcp.md): the answers of
 * GET /v1/profiles/{…}/history and GET /v1/releases/{id}/changes/summary, from the same reads
 * of the catalog read service (catalog/service/history.ts, summary.ts), as structured content. A
 * history page's `next_cursor` is the route's `cursor`.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ChangesSummary, ProfileHistoryEntry } from "../../common/catalog/history-schemas";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../catalog/query-params";
import { profileHistoryPage } from "../catalog/service/history";
import type { ProfileRef } from "../catalog/service/profile";
import { compareReleases } from "../catalog/service/summary";
import type { McpContext } from "./catalog-reads";
import { toolListPage, toolListSchema } from "./list-answer";
import { registerReadTool } from "./read-tool";
import { PROFILE_REF_ARGUMENTS, refOf } from "./profile-tools";
import { ReleaseIdArgument } from "./schemas";
import { boundedPage } from "./output-budget";
import { answering, toolAnswer, toolError } from "./tool-result";

const HistoryArguments = z.strictObject({
  ...PROFILE_REF_ARGUMENTS,
  limit: z
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .optional()
    .describe(`Entries per page, 1–${MAX_LIMIT}, default ${DEFAULT_LIMIT}.`),
  cursor: z.string().max(512).optional().describe("The next_cursor of the previous page (same profile)."),
});

const HistoryOutput = toolListSchema(ProfileHistoryEntry, {});

const CompareArguments = z.strictObject({
  since: ReleaseIdArgument.unwrap().describe(
    "The older release (sha256:…): any release ever made current here since the history began, kept or not.",
  ),
  release_id: ReleaseIdArgument.describe("The newer release (sha256:…); default: the current release."),
});

/** The REST route of one profile's history, as the profile was named. */
const historyPath = (ref: ProfileRef) =>
  "id" in ref ? `/v1/profiles/${ref.id}/history` : `/v1/profiles/${ref.product}/${ref.funnel}/history`;

export function registerHistoryTools(server: McpServer, ctx: McpContext) {
  registerReadTool(
    server,
    "profile_history",
    {
      title: "How one profile changed over time",
      description:
        "Each publish or rollback at which one profile (by product and funnel keys, or id) changed, newest first: its grade, outcome, " +
        "state, each stage's state and test time then, and fields_changed naming what moved (e.g. stage.pay). Kept for every release " +
        "ever published here. Same entries as GET /v1/profiles/{product}/{funnel}/history.",
      inputSchema: HistoryArguments,
      outputSchema: HistoryOutput,
    },
    (args) =>
      answering(async () => {
        const ref = refOf(args);
        if (typeof ref === "string") return toolError(`invalid_parameter: ${ref}`);
        const limit = args.limit ?? DEFAULT_LIMIT;
        const readPage = (size: number) => profileHistoryPage(ctx.env, ref, { limit: size, cursor: args.cursor });
        return boundedPage(limit, readPage, (page) => {
          const answer = toolListPage(
            page.data,
            page.next_cursor,
            (cursor) => `${ctx.origin}${historyPath(ref)}?limit=${limit}&cursor=${cursor}`,
          );
          const [newest] = page.data;
          const more = page.next_cursor === null ? "" : "; pass next_cursor as cursor for older ones";
          return toolAnswer(
            answer,
            newest
              ? `${page.data.length} change(s) shown, newest ${newest.change} at ${newest.event_at} (grade ${newest.grade}, ${newest.public_state})${more}.`
              : "No more entries.",
          );
        });
      }),
  );

  registerReadTool(
    server,
    "compare_releases",
    {
      title: "Compare two releases, counted",
      description:
        "How the catalog moved between an older release (since) and the current one (or release_id): profiles added, removed, changed, " +
        "and per field (grade, overall_outcome, public_state, primary_stage, stage.<name>) how many went old→new, e.g. " +
        '"stage.pay": {"ready→limited": 3}. Same answer as GET /v1/releases/{release_id}/changes/summary?since=.',
      inputSchema: CompareArguments,
      outputSchema: ChangesSummary,
    },
    (args) =>
      answering(async () => {
        const summary = await compareReleases(ctx.env, { releaseId: args.release_id, since: args.since });
        return toolAnswer(
          { ...summary },
          `Since ${summary.since}, release ${summary.release_id} has ${summary.added} added, ${summary.changed} changed and ${summary.removed} removed profile(s).`,
        );
      }),
  );
}
