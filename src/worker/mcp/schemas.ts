/** The zod schemas the MCP tools share: a release argument and the compact profile. */
import { z } from "zod";
import { STAGES } from "../../common/catalog/schema";
import { RELEASE_ID } from "../catalog/service/release";

export const ReleaseIdArgument = z
  .string()
  .regex(RELEASE_ID, "must be sha256: followed by 64 lowercase hex digits (as describe_catalog gives it)")
  .optional()
  .describe("A release id (sha256:…); default: the current release.");

const Scope = z.strictObject({ key: z.string(), name: z.string() });

export const CompactProfileSchema = z.strictObject({
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
