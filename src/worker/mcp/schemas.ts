/** The zod schemas the MCP tools share: a release argument, the detail argument and a profile as a list shows it. */
import { z } from "zod";
import { Profile, STAGES } from "../../common/catalog/schema";
import { RELEASE_ID } from "../catalog/service/release";

export const ReleaseIdArgument = z
  .string()
  .regex(RELEASE_ID, "must be sha256: followed by 64 lowercase hex digits (as describe_catalog gives it)")
  .optional()
  .describe("A release id (sha256:…); default: the current release.");

const Scope = z.strictObject({ key: z.string(), name: z.string() });

const CompactProfileSchema = z.strictObject({
  agent_readiness_profile_id: z.string(),
  product: Scope,
  funnel: Scope,
  grade: z.string(),
  overall_outcome: z.string(),
  stages: z.strictObject(Object.fromEntries(STAGES.map((stage) => [stage, z.string()])) as Record<string, z.ZodString>),
  primary_finding: z.strictObject({ stage: z.string(), finding: z.string() }),
  href: z.string().describe("The profile's pinned URL (GET with a key or token)."),
  sha256: z.string().describe("sha256:<hex> of the profile's bytes: cite it with the release id."),
});

export const DetailArgument = z
  .enum(["summary", "full"])
  .optional()
  .describe(
    'How much of each profile: "summary" (default) its scope, grade, outcome, five stage states, primary finding, href and sha256; ' +
      '"full" the whole profile as GET /v1/profiles/… serves it, with href and sha256 (far larger: fewer fit in one answer).',
  );

const FullProfileSchema = z.strictObject({
  href: z.string().describe("The profile's pinned URL (GET with a key or token)."),
  sha256: z.string().describe("sha256:<hex> of the profile's bytes: cite it with the release id."),
  profile: Profile,
});

/** A profile in a list or a comparison: its summary, or with detail "full" the whole profile. */
export const ProfileEntrySchema = z.union([CompactProfileSchema, FullProfileSchema]);
