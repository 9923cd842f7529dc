/**
 * `list_changes`: what changed since a release, as GET /v1/releases/{id}/changes?since= lists it.
 * The same checks (`since` must be kept, else release_gone naming the oldest kept one), the same
 * list stored per pair (ensureChanges, readChangesPage) and the same entries (changeView), with
 * `href` made absolute as in every tool's answer; a page's `next_cursor` is the route's `after`.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ChangesCursorInvalid, readChangesPage } from "../../common/catalog/changes-store";
import { CHANGES_PAGE_LIMIT, changesCursorScope, changesOf, changeView, keptRelease } from "../catalog/release-changes";
import { openNumberCursor, sealCursor } from "../http/cursor";
import { Problem } from "../http/problem";
import { type McpContext, releaseOf } from "./catalog-reads";
import { ReleaseIdArgument } from "./schemas";
import { answering, toolAnswer } from "./tool-result";

export const DEFAULT_CHANGES_LIMIT = 100;

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
    .describe(`Changes per page, 1–${CHANGES_PAGE_LIMIT}, default ${DEFAULT_CHANGES_LIMIT}.`),
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

const ChangesOutput = z.strictObject({
  release_id: z.string(),
  since: z.string(),
  count: z.int().describe("Every change between the two releases, on all pages."),
  counts: z.strictObject({ added: z.int(), changed: z.int(), removed: z.int() }),
  changes: z.array(ChangeEntry),
  next_cursor: z.string().nullable(),
});

const withPrefix = (id: string) => (id.startsWith("sha256:") ? id : `sha256:${id}`);

export function registerChangesTool(server: McpServer, ctx: McpContext) {
  server.registerTool(
    "list_changes",
    {
      title: "List what changed since a release",
      description:
        "The profiles added, changed and removed between an earlier release (since) and the current one (or release_id), in catalog order, " +
        "with each side's sha256 and the profile's href; identical profiles are not listed. Use it to refresh what you learned from an " +
        "earlier answer. Same list as GET /v1/releases/{release_id}/changes?since=.",
      inputSchema: ChangesArguments,
      outputSchema: ChangesOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answering(async () => {
        const newer = await releaseOf(ctx, args.release_id);
        const older = await keptRelease(ctx.env, withPrefix(args.since));
        const summary = await changesOf(ctx.env, newer, older);
        const scope = changesCursorScope(older, { parameter: "cursor", source: "`next_cursor`" });
        const from =
          args.cursor === undefined ? 0 : await openNumberCursor(ctx.env, scope, args.cursor, newer.release_id);
        const page = await readChangesPage(
          ctx.env.RELEASES,
          newer,
          older,
          from,
          args.limit ?? DEFAULT_CHANGES_LIMIT,
        ).catch((error: unknown) => {
          if (!(error instanceof ChangesCursorInvalid)) throw error;
          throw new Problem(
            "invalid_cursor",
            `cursor: not a cursor of this list (${error.message}); pass the next_cursor of the previous page, with the same since and release_id.`,
          );
        });
        const changes = page.changes.map((change) => {
          const view = changeView(change, newer, older);
          return { ...view, href: `${ctx.origin}${view.href}` };
        });
        const answer = {
          release_id: newer.release_id,
          since: older.release_id,
          count: summary.count,
          counts: summary.counts,
          changes,
          next_cursor:
            page.next === null ? null : await sealCursor(ctx.env, scope, { release: newer.release_id, at: page.next }),
        };
        const { added, changed, removed } = summary.counts;
        const more = page.next === null ? "" : "; pass next_cursor as cursor for more";
        return toolAnswer(
          answer,
          `Since ${older.release_id}, release ${newer.release_id} has ${added} added, ${changed} changed and ${removed} removed profile(s); ` +
            `${changes.length} shown${more}.`,
        );
      }),
  );
}
