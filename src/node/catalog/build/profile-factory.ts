/**
 * Builds a profile that satisfies every rule (the spec's rules 1–5 and docs/contract.md's decisions) from
 * the few choices that vary: stage outcomes and signals, grade, coverage counts, ids and times.
 * Used by `catalog:generate` and to write the sample profiles in data/profiles.
 */
import { expectDefined } from "../../../common/expect";
import { STAGE_LABELS, STAGES, STATE_LABELS, STATE_OF_OUTCOME, type Profile } from "../../../common/catalog/schema";
import { GRADE_DERIVATION, SIGNAL_TEXTS } from "./signal-texts";

export interface StageChoice {
  outcome: "pass" | "constrained";
  signal: string;
  /** Which wording of the finding and context to use (index, wraps around). */
  variant?: number;
  finding?: string;
  context?: string;
}

export interface ProfileSpec {
  id: string;
  entityId: string;
  product: { key: string; name: string };
  funnel: { key: string; name: string };
  stages: readonly StageChoice[];
  grade: Profile["grade"];
  coverage: { covered: number; required: number; verified: number; barrier: number };
  effectiveFrom: string;
  lastTestedAt: string;
  digests: { declaration: string; revision: string; projection: string };
  policy: { digest: string; version: string; asOf: string };
  siteBaseUrl: string;
}

export function makeProfile(spec: ProfileSpec): Profile {
  const stages = STAGES.map((stage, i) => {
    const choice = expectDefined(spec.stages[i], "a choice for each of the five stages");
    const texts = SIGNAL_TEXTS[choice.signal];
    if (!texts) throw new Error(`no wording for signal ${choice.signal}`);
    const variant = choice.variant ?? 0;
    const findings = texts[choice.outcome];
    const state = STATE_OF_OUTCOME[choice.outcome];
    return {
      stage,
      stage_label: STAGE_LABELS[stage],
      outcome: choice.outcome,
      public_state: state,
      state_label: STATE_LABELS[state],
      primary_finding: {
        signal_code: choice.signal,
        condition: texts.condition,
        finding: choice.finding ?? expectDefined(findings[variant % findings.length], "a finding for each outcome"),
        context: (
          choice.context ??
          expectDefined(texts.context[(choice.outcome === "pass" ? 0 : 1) % texts.context.length], "a context text")
        ).replaceAll("{product}", spec.product.name),
      },
    };
  });
  const headline = stages.find((s) => s.outcome !== "pass") ?? expectDefined(stages[0], "the first of five stages");
  const constrained = stages.some((s) => s.outcome === "constrained");
  const { covered, required, verified, barrier } = spec.coverage;
  return {
    agent_readiness_profile_id: spec.id,
    entity_id: spec.entityId,
    scope: { product: spec.product, funnel: spec.funnel },
    declaration_revision_digest: spec.digests.declaration,
    lifecycle: "active",
    effective_from: spec.effectiveFrom,
    revision_digest: spec.digests.revision,
    policy_digest: spec.policy.digest,
    policy_version: spec.policy.version,
    policy_as_of: spec.policy.asOf,
    overall_outcome: constrained ? "constrained" : "pass",
    public_state: constrained ? "limited" : "ready",
    state_label: constrained ? "Limited" : "Ready",
    grade: spec.grade,
    grade_derivation: { ...GRADE_DERIVATION },
    publication: { visibility: "discoverable", reasons: [] },
    primary_finding: {
      stage: headline.stage,
      stage_label: headline.stage_label,
      public_state: headline.public_state,
      finding: { ...headline.primary_finding },
    },
    coverage: {
      status: covered === required ? "complete" : "incomplete",
      required_signals: required,
      covered_signals: covered,
      ratio: covered / required,
      barrier_signals: barrier,
      verified_barrier_signals: verified,
      barrier_ratio: verified / barrier,
    },
    last_tested_at: spec.lastTestedAt,
    freshness: "fresh",
    canonical_url: `${spec.siteBaseUrl}/products/${spec.product.key}/${spec.funnel.key}`,
    projection_digest: spec.digests.projection,
    stages,
    provenance: { freshness: "fresh", dispute: "none", vendor_attestation: { status: "none" } },
  };
}

/** "Zürich Ledger API" → "zurich-ledger-api" (lowercase words joined by hyphens). */
export function keyOf(name: string): string {
  return name
    .replace(/[Ææ]/g, "ae")
    .replace(/[Øø]/g, "o")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
