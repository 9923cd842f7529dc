/**
 * The catalog reads the MCP tools and resources share, on the catalog module's own functions (no
 * query or lookup logic of their own): the release a call is about, one profile by scope or id,
 * and the compact form a model reads in a list.
 */
import { asDigest } from "../../common/catalog/digest";
import type { Manifest } from "../../common/catalog/manifest";
import { scopeKey } from "../../common/catalog/profile-index";
import { STAGES, type Profile } from "../../common/catalog/schema";
import { IndexReader } from "../catalog/index-reader";
import { profileScopePath } from "../catalog/profile-representation";
import { profileBytes } from "../catalog/query-bytes";
import { currentRelease, pinnedRelease } from "../catalog/release-lookup";
import { Problem } from "../http/problem";

/** What every tool call runs with: the worker's bindings and the origin the request reached. */
export interface McpContext {
  env: Env;
  origin: string;
}

/** The given release (`sha256:<hex>` or bare hex), or the current one. */
export function releaseOf(ctx: McpContext, releaseId?: string): Promise<Manifest> {
  if (releaseId === undefined) return currentRelease(ctx.env.CATALOG_KV);
  return pinnedRelease(ctx.env.CATALOG_KV, releaseId.startsWith("sha256:") ? releaseId : `sha256:${releaseId}`);
}

export interface FoundProfile {
  profile: Profile;
  sha256: string;
  href: string;
}

export type ProfileRef = { product: string; funnel: string } | { id: string };

/** One profile through the release index, exactly as GET /v1/profiles/… serves it. */
export async function findProfile(ctx: McpContext, manifest: Manifest, ref: ProfileRef): Promise<FoundProfile> {
  const [name, key] = "id" in ref ? (["id", ref.id] as const) : (["scope", scopeKey(ref.product, ref.funnel)] as const);
  const located = await IndexReader.of(ctx.env.RELEASES, manifest, name).find(key);
  if (!located) {
    const what = "id" in ref ? `with id ${ref.id}` : `for product "${ref.product}" and funnel "${ref.funnel}"`;
    throw new Problem(
      "profile_not_found",
      `Release ${manifest.release_id} has no profile ${what}. Call search_profiles (e.g. with q or product) to find the right keys.`,
    );
  }
  const [bytes] = await profileBytes(ctx.env.RELEASES, manifest, [located]);
  const profile = JSON.parse(new TextDecoder().decode(bytes)) as Profile;
  return { profile, sha256: asDigest(located.sha256), href: hrefOf(ctx, manifest, profile) };
}

/** The pinned URL of a profile on this origin. */
export const hrefOf = (ctx: McpContext, manifest: Manifest, profile: Profile) =>
  `${ctx.origin}${profileScopePath(manifest.release_id, profile.scope.product.key, profile.scope.funnel.key)}`;

/** A profile in the compact form of search results and comparisons. */
export function compactProfile(profile: Profile, sha256: string, href: string) {
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
