/**
 * What the MCP tools and resources add to the catalog read service (catalog/service/): the
 * context a call runs with, absolute hrefs on the origin the request reached, and the compact form
 * a model reads in a list. No query or lookup logic of their own.
 */
import type { Manifest } from "../../common/catalog/manifest";
import { STAGES, type Profile } from "../../common/catalog/schema";
import { pinnedPathOf } from "../catalog/service/profile";

/** What every tool call runs with: the worker's bindings and the origin the request reached. */
export interface McpContext {
  env: Env;
  origin: string;
}

/** The pinned URL of a profile on this origin. */
export const hrefOf = (ctx: McpContext, manifest: Manifest, profile: Profile) =>
  `${ctx.origin}${pinnedPathOf(manifest, profile)}`;

/** A profile in the compact form of search results and comparisons. */
function compactProfile(profile: Profile, sha256: string, href: string) {
  return {
    agent_readiness_profile_id: profile.agent_readiness_profile_id,
    product: profile.scope.product,
    funnel: profile.scope.funnel,
    grade: profile.grade,
    overall_outcome: profile.overall_outcome,
    stages: Object.fromEntries(
      STAGES.map((stage) => [stage, profile.stages.find((s) => s.stage === stage)?.public_state ?? "unknown"]),
    ) as Record<(typeof STAGES)[number], string>,
    primary_finding: { stage: profile.primary_finding.stage, finding: profile.primary_finding.finding.finding },
    href,
    sha256,
  };
}

/** A profile as a list or comparison shows it: its summary, or the whole profile (detail "full"). */
export const profileEntry = (profile: Profile, sha256: string, href: string, detail: "summary" | "full" = "summary") =>
  detail === "full" ? { href, sha256, profile } : compactProfile(profile, sha256, href);
