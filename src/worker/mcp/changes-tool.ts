/**
 * `list_changes`: what changed since a release, as GET /v1/releases/{id}/changes?since= lists it:
 * the read service's listChanges (catalog/service/changes.ts), with `href` made absolute as in
 * every tool's answer; a page is a list (list-answer.ts) whose `next_cursor` is the cursor the
 * route's `next` carries (as `cursor`), and whose default size is the route's.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CHANGES_PAGE_LIMIT, changesPagePath, listChanges } from "../catalog/service/changes";
import { changesCursorOpener, sealChangesCursor } from "../http/cursor";
import type { McpContext } from "./catalog-reads";
import { toolListPage, toolListSchema } from "./list-answer";
import { registerReadTool } from "./read-tool";
import { ReleaseIdArgument } from "./schemas";
import { boundedPage } from "./output-budget";
import { answering, toolAnswer } from "./tool-result";

const MCP_CURSOR = { parameter: "cursor", source: "`next_cursor`" };

const ChangesArguments = z.strictObject({
  since: ReleaseIdArgument.unwrap().describe(
    "The release you know (sha256:…), e.g. the release_id of an earlier answer; it must still be kept (the current release or one of the 5 before it).",
  ),
  release_id: ReleaseIdArgument.describe("The newer release (sha256:…); default: the current release."),
  limit: z
    .int()
    .min(1)
    .max(CHANGES_PAGE_LIMIT)
    .optional()
    .describe(`Changes per page, 1–${CHANGES_PAGE_LIMIT}, default ${CHANGES_PAGE_LIMIT} (as the route).`),
  cursor: z.string().optional().describe("The next_cursor of the previous page (same since and release_id)."),
});

const Digest = z.string().describe("sha256:<hex> of the profile's bytes.");

const ChangeEntry = z.strictObject({
  change: z.enum(["added", "changed", "removed"]),
  agent_readiness_profile_id: z.string(),
  product_key: z.string(),
  funnel_key: z.string(),
  sha256: Digest.optional().describe("Of the profile in release_id (not on removed)."),
  offset: z.int().optional(),
  length: z.int().optional(),
  previous_sha256: Digest.optional().describe("Of the profile in since (not on added)."),
  previous_offset: z.int().optional(),
  previous_length: z.int().optional(),
  href: z.string().describe("The profile's pinned URL: in release_id, or in since when removed."),
});

const ChangesOutput = toolListSchema(ChangeEntry, {
  release_id: z.string(),
  since: z.string(),
  count: z.int().describe("Every change between the two releases, on all pages."),
  counts: z.strictObject({ added: z.int(), changed: z.int(), removed: z.int() }),
});

export function registerChangesTool(server: McpServer, ctx: McpContext) {
  registerReadTool(
    server,
    "list_changes",
    {
      title: "List what changed since a release",
      description:
        "The profiles added, changed and removed between an earlier release (since) and the current one (or release_id), in catalog order, " +
        "with each side's sha256 and the profile's href; identical profiles are not listed. Use it to refresh what you learned from an " +
        "earlier answer. Same list as GET /v1/releases/{release_id}/changes?since=.",
      inputSchema: ChangesArguments,
      outputSchema: ChangesOutput,
    },
    (args) =>
      answering(async () => {
        const from = args.cursor === undefined ? undefined : changesCursorOpener(ctx.env, args.cursor, MCP_CURSOR);
        const limit = args.limit ?? CHANGES_PAGE_LIMIT;
        const readPage = async (size: number) => {
          const read = await listChanges(ctx.env, { releaseId: args.release_id, since: args.since, from, limit: size });
          const cursor = read.next === null ? null : await sealChangesCursor(ctx.env, read, read.next, MCP_CURSOR);
          return { read, cursor };
        };
        return boundedPage(limit, readPage, ({ read, cursor }) => {
          const changes = read.changes.map((change) => ({ ...change, href: `${ctx.origin}${change.href}` }));
          const answer = {
            ...toolListPage(changes, cursor, (next) => `${ctx.origin}${changesPagePath(read, limit, next)}`),
            release_id: read.release.release_id,
            since: read.since.release_id,
            count: read.count,
            counts: read.counts,
          };
          const { added, changed, removed } = read.counts;
          const more = cursor === null ? "" : "; pass next_cursor as cursor for more";
          return toolAnswer(
            answer,
            `Since ${read.since.release_id}, release ${read.release.release_id} has ${added} added, ${changed} changed and ${removed} removed profile(s); ` +
              `${changes.length} shown${more}.`,
          );
        });
      }),
  );
}
