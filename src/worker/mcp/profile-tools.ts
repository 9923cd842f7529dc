/**
 * `get_profile` (one whole profile, by scope or id) and `compare_profiles` (2–10 scopes side by
 * side, stage by stage, the differences named). Both read through the release index exactly as
 * GET /v1/profiles/… does (catalog-reads.ts). Each links its MCP App view (app-resources.tsx), and
 * each answer names the rendered view of itself, pinned to its release, in `_meta.ui.resourceUri`.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expectDefined } from "../../common/expect";
import { KEY_PATTERN, PROFILE_ID_PATTERN, Profile, STAGE_LABELS, STAGES } from "../../common/catalog/schema";
import { type FoundProfile, type ProfileRef, readProfile } from "../catalog/service/profile";
import { resolveRelease } from "../catalog/service/release";
import { APP_SHELL_URI, COMPARED, compareViewUri, profileViewUri } from "./app-uris";
import { type McpContext, profileEntry } from "./catalog-reads";
import { registerReadTool } from "./read-tool";
import { DetailArgument, ProfileEntrySchema, ReleaseIdArgument } from "./schemas";
import { bounded } from "./output-budget";
import { answering, toolAnswer, toolError } from "./tool-result";

const Key = (what: string) =>
  z.string().regex(KEY_PATTERN, `must be a ${what} key: lowercase words joined by hyphens, e.g. payments-api`);

/** One profile named by scope or id: the arguments of get_profile and profile_history. */
export const PROFILE_REF_ARGUMENTS = {
  product: Key("product").optional().describe("The product key (with funnel)."),
  funnel: Key("funnel").optional().describe("The funnel key (with product)."),
  id: z
    .string()
    .regex(PROFILE_ID_PATTERN, "must be arp_ followed by 26 lowercase letters or digits")
    .optional()
    .describe("The agent_readiness_profile_id, instead of product and funnel."),
};

const GetArguments = z.strictObject({ ...PROFILE_REF_ARGUMENTS, release_id: ReleaseIdArgument });

const GetOutput = z.strictObject({
  release_id: z.string(),
  sha256: z.string(),
  href: z.string(),
  profile: Profile,
});

const CompareArguments = z.strictObject({
  profiles: z
    .array(z.strictObject({ product: Key("product"), funnel: Key("funnel") }))
    .min(COMPARED.min, `compare at least ${COMPARED.min} profiles`)
    .max(COMPARED.max, `compare at most ${COMPARED.max} profiles`)
    .describe(`The scopes to compare, ${COMPARED.min} to ${COMPARED.max}.`),
  release_id: ReleaseIdArgument,
  detail: DetailArgument,
});

const CompareOutput = z.strictObject({
  release_id: z.string(),
  profiles: z.array(ProfileEntrySchema),
  stages: z.array(
    z.strictObject({
      stage: z.string(),
      states: z.array(z.string()).describe("Each profile's state, in the order of profiles."),
      same: z.boolean(),
    }),
  ),
  differences: z.array(z.string()),
});

/** Exactly one of (product and funnel) or id, else a message saying what to send. */
export function refOf(args: { product?: string; funnel?: string; id?: string }): ProfileRef | string {
  const byScope = args.product !== undefined || args.funnel !== undefined;
  if (byScope && args.id !== undefined) return "send either product and funnel, or id, not both";
  if (args.id !== undefined) return { id: args.id };
  if (args.product === undefined || args.funnel === undefined)
    return "send product and funnel together (both keys), or id (search_profiles finds them)";
  return { product: args.product, funnel: args.funnel };
}

/** A bounded answer that names its rendered view (SEP-1865 hosts deliver `_meta` to the view); a refusal names none. */
function withView(view: string, answer: CallToolResult, what: string): CallToolResult {
  const result = bounded(answer, what);
  return result.isError ? result : { ...result, _meta: { ui: { resourceUri: view } } };
}

export function registerProfileTools(server: McpServer, ctx: McpContext) {
  const absolute = (found: FoundProfile) => `${ctx.origin}${found.path}`;
  registerReadTool(
    server,
    "get_profile",
    {
      title: "Get one readiness profile",
      description:
        "The whole readiness profile of one product in one funnel (by product and funnel keys, or by id), in the current or a given release, " +
        "with its sha256 and release id to cite. Same bytes as GET /v1/profiles/{product}/{funnel}.",
      inputSchema: GetArguments,
      outputSchema: GetOutput,
      view: APP_SHELL_URI.profile,
    },
    (args) =>
      answering(async () => {
        const ref = refOf(args);
        if (typeof ref === "string") return toolError(`invalid_parameter: ${ref}`);
        const manifest = await resolveRelease(ctx.env.CATALOG_KV, args.release_id);
        const found = await readProfile(ctx.env, manifest, ref);
        const { profile } = found;
        const view = profileViewUri(manifest.release_id, profile.scope.product.key, profile.scope.funnel.key);
        return withView(
          view,
          toolAnswer(
            { release_id: manifest.release_id, sha256: found.sha256, href: absolute(found), profile },
            `${profile.scope.product.name} (${profile.scope.funnel.name}): grade ${profile.grade}, ${profile.state_label}. ` +
              `Cite as release ${manifest.release_id}, profile ${found.sha256}.`,
          ),
          "this profile",
        );
      }),
  );

  registerReadTool(
    server,
    "compare_profiles",
    {
      title: "Compare readiness profiles",
      description:
        "Put 2 to 10 products (each in one funnel) side by side, stage by stage (evaluate, sign_up, pay, provision, operate), " +
        "and name where they differ, e.g. which can be paid for self-service and which needs a sales call.",
      inputSchema: CompareArguments,
      outputSchema: CompareOutput,
      view: APP_SHELL_URI.compare,
    },
    (args) =>
      answering(async () => {
        const manifest = await resolveRelease(ctx.env.CATALOG_KV, args.release_id);
        const found = await Promise.all(args.profiles.map((ref) => readProfile(ctx.env, manifest, ref)));
        const names = found.map(({ profile }) => `${profile.scope.product.name} (${profile.scope.funnel.key})`);
        const stages = STAGES.map((stage) => {
          const entries = found.map(({ profile }) =>
            expectDefined(
              profile.stages.find((s) => s.stage === stage),
              `the ${stage} stage, which catalog spec rule 1 requires in every profile`,
            ),
          );
          const states = entries.map((entry) => entry.public_state);
          return { stage, entries, states, same: new Set(states).size === 1 };
        });
        const differences = stages
          .filter((s) => !s.same)
          .map(({ stage, entries }) => {
            const each = entries.map((entry, i) =>
              entry.public_state === "ready"
                ? `${names[i]} is ready`
                : `${names[i]} is ${entry.public_state}: ${entry.primary_finding.finding}`,
            );
            return `${STAGE_LABELS[stage]}: ${each.join("; ")}.`;
          });
        const answer = {
          release_id: manifest.release_id,
          profiles: found.map((one) => profileEntry(one.profile, one.sha256, absolute(one), args.detail)),
          stages: stages.map(({ stage, states, same }) => ({ stage, states, same })),
          differences,
        };
        const summary = differences.length
          ? `They differ in ${differences.length} stage(s):\n${differences.join("\n")}`
          : "Every stage has the same state in all of them.";
        const view = compareViewUri(
          manifest.release_id,
          found.map(({ profile }) => profile.agent_readiness_profile_id),
        );
        return withView(view, toolAnswer(answer, summary), "these profiles in full");
      }),
  );
}
