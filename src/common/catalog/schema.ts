/**
 * The one definition of the catalog's records (catalog spec, "Resources and their fields").
 * The build script, the worker, the OpenAPI document and the tests all import these schemas.
 *
 * Values the spec only "observed" are the known set: an unknown value is a validation error,
 * so a new policy value is a deliberate schema change (docs/contract.md, "Profiles").
 */
import { z } from "@hono/zod-openapi";

export const STAGES = ["evaluate", "sign_up", "pay", "provision", "operate"] as const;
export type StageName = (typeof STAGES)[number];

export const STAGE_LABELS: Record<StageName, string> = {
  evaluate: "Evaluate",
  sign_up: "Sign up",
  pay: "Pay",
  provision: "Provision",
  operate: "Operate",
};

/** Observed signal codes by stage (catalog spec, "Observed signal codes by stage"). */
export const SIGNAL_CODES: Record<StageName, readonly string[]> = {
  evaluate: ["service_discovery"],
  sign_up: ["access_entrypoint_stability", "delegated_identity_access"],
  pay: ["commitment_disclosure", "self_service_purchase"],
  provision: ["provisioning_operability", "provisioning_completion", "access_material_delivery"],
  operate: ["failure_contract"],
};

export const OUTCOMES = ["pass", "constrained"] as const;
export const PUBLIC_STATES = ["ready", "limited"] as const;
export const STATE_LABELS = { ready: "Ready", limited: "Limited" } as const;
/** Outcome → public state (catalog spec rule 2). */
export const STATE_OF_OUTCOME = { pass: "ready", constrained: "limited" } as const;
export const GRADES = ["A", "B+", "B", "C+", "C", "D", "F"] as const;

const SHA256_PATTERN = /^sha256:[0-9a-f]{64}$/;
/** A product or funnel key; also what the profile lookup routes accept in their path. */
export const KEY_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const prefixedIdPattern = (prefix: string) => new RegExp(`^${prefix}[a-z0-9]{26}$`);
export const PROFILE_ID_PATTERN = prefixedIdPattern("arp_");

export const Sha256Digest = z
  .string()
  .regex(SHA256_PATTERN, 'must be "sha256:" followed by 64 lowercase hex digits')
  .openapi({ example: "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" });

const prefixedId = (prefix: string) =>
  z.string().regex(prefixedIdPattern(prefix), `must be "${prefix}" followed by 26 lowercase alphanumeric characters`);

const realInstant = (value: string) => !Number.isNaN(Date.parse(value));

/** ISO 8601 UTC timestamp with second precision: `2026-10-01T00:00:00Z`. */
export const UtcSeconds = z.iso
  .datetime({
    precision: 0,
    message: "must be an ISO 8601 UTC timestamp with second precision, e.g. 2026-10-01T00:00:00Z",
  })
  .refine(realInstant, "is not a real date and time");

/** ISO 8601 UTC timestamp with millisecond precision: `2026-11-20T12:34:56.789Z`. */
export const UtcMillis = z.iso
  .datetime({
    precision: 3,
    message: "must be an ISO 8601 UTC timestamp with millisecond precision, e.g. 2026-11-20T12:34:56.789Z",
  })
  .refine(realInstant, "is not a real date and time");

/** ISO 8601 UTC timestamp, any sub-second precision. */
export const UtcTimestamp = z.iso
  .datetime({ message: "must be an ISO 8601 UTC timestamp ending in Z, e.g. 2026-10-01T00:00:00Z" })
  .refine(realInstant, "is not a real date and time");

const text = z.string().min(1, "must not be empty");

export const ScopeKey = z.strictObject({
  key: z.string().regex(KEY_PATTERN, "must be lowercase words joined by hyphens, e.g. payments-api"),
  name: text,
});

export const Finding = z
  .strictObject({
    signal_code: z.string().regex(/^[a-z][a-z0-9_]*$/, "must be a snake_case signal code"),
    condition: text,
    finding: text,
    context: text,
  })
  .openapi("Finding");

export const Stage = z
  .strictObject({
    stage: z.enum(STAGES),
    stage_label: z.enum(Object.values(STAGE_LABELS) as [string, ...string[]]),
    outcome: z.enum(OUTCOMES),
    public_state: z.enum(PUBLIC_STATES),
    state_label: z.enum(Object.values(STATE_LABELS) as [string, ...string[]]),
    primary_finding: Finding,
  })
  .openapi("Stage");

export const GradeDerivation = z.strictObject({
  label: text,
  explanation: text,
  coverage_rule: text,
  outcome_rule: text,
});

export const Coverage = z.strictObject({
  status: z.enum(["complete", "incomplete"]),
  required_signals: z.int().min(1),
  covered_signals: z.int().min(0),
  ratio: z.number().min(0).max(1),
  barrier_signals: z.int().min(1),
  verified_barrier_signals: z.int().min(0),
  barrier_ratio: z.number().min(0).max(1),
});

export const Publication = z.strictObject({
  visibility: z.enum(["discoverable"]),
  reasons: z.array(z.unknown()).max(0, "must be empty: the catalog spec defines no shape for publication reasons yet"),
});

export const Provenance = z.strictObject({
  freshness: z.enum(["fresh"]),
  dispute: z.enum(["none"]),
  vendor_attestation: z.strictObject({ status: z.enum(["none"]) }),
});

export const PrimaryFinding = z.strictObject({
  stage: z.enum(STAGES),
  stage_label: z.enum(Object.values(STAGE_LABELS) as [string, ...string[]]),
  public_state: z.enum(PUBLIC_STATES),
  finding: Finding,
});

export const Profile = z
  .strictObject({
    agent_readiness_profile_id: prefixedId("arp_"),
    entity_id: prefixedId("ent_"),
    scope: z.strictObject({ product: ScopeKey, funnel: ScopeKey }),
    declaration_revision_digest: Sha256Digest,
    lifecycle: z.enum(["active"]),
    effective_from: UtcSeconds,
    revision_digest: Sha256Digest,
    policy_digest: Sha256Digest,
    policy_version: text,
    policy_as_of: UtcTimestamp,
    overall_outcome: z.enum(OUTCOMES),
    public_state: z.enum(PUBLIC_STATES),
    state_label: z.enum(Object.values(STATE_LABELS) as [string, ...string[]]),
    grade: z.enum(GRADES),
    grade_derivation: GradeDerivation,
    publication: Publication,
    primary_finding: PrimaryFinding,
    coverage: Coverage,
    last_tested_at: UtcMillis,
    freshness: z.enum(["fresh"]),
    canonical_url: z.url({ protocol: /^https$/, message: "must be an absolute https URL" }),
    projection_digest: Sha256Digest,
    stages: z.array(Stage),
    provenance: Provenance,
  })
  .openapi("Profile");
export type Profile = z.infer<typeof Profile>;

export const API_CONTRACT_PATTERN = /^[a-z0-9]+(?:[.-][a-z0-9]+)*\.catalog-api\/v1$/;

export const ApiContract = z
  .string()
  .regex(API_CONTRACT_PATTERN, 'must be "<namespace>.catalog-api/v1"')
  .openapi({ example: "example.catalog-api/v1" });

export const Envelope = z
  .strictObject({
    api_contract: ApiContract,
    release_id: Sha256Digest,
    artifact_sha256: Sha256Digest,
    data: z.array(Profile),
  })
  .openapi("Catalog");
export type Envelope = z.infer<typeof Envelope>;
