/**
 * The rules engine for one profile: the zod schema (rule `schema`), the catalog spec's rules 1–5
 * and the decisions of docs/contract.md ("Profiles"). Pure, and it
 * reports every violation, not the first: rules read the raw value defensively and skip a check
 * whose inputs the schema already rejected, so a malformed value is reported once, by the schema.
 */
import {
  SIGNAL_CODES,
  STAGE_LABELS,
  STAGES,
  STATE_LABELS,
  STATE_OF_OUTCOME,
  type StageName,
} from "../../common/catalog/schema";
import { coverageViolations } from "./rules-coverage";
import { schemaViolations } from "./validation-schema";
import { describe, oneOf, type RuleId, type RuleViolation } from "./validation-report";

type Json = Record<string, unknown>;

/** Every violation of one parsed profile; empty when it is valid. */
export function validateProfile(value: unknown): RuleViolation[] {
  const violations = schemaViolations(value);
  if (!isObject(value)) return violations;
  violations.push(...ruleViolations(value));
  return violations;
}

/** The violations of every rule but the schema's (for a profile the build already knows the schema accepts). */
export function ruleViolations(profile: Json): RuleViolation[] {
  const stages = readStages(profile);
  return [
    ...stageViolations(profile, stages),
    ...headlineViolations(profile, stages),
    ...coverageViolations(profile.coverage),
  ];
}

interface ReadableStage {
  index: number;
  stage?: StageName;
  outcome?: "pass" | "constrained";
  publicState?: "ready" | "limited";
  finding?: unknown;
}

function readStages(profile: Json): ReadableStage[] {
  if (!Array.isArray(profile.stages)) return [];
  return profile.stages.map((entry, index) => {
    const stage = isObject(entry) ? entry : {};
    return {
      index,
      stage: known(stage.stage, STAGES),
      outcome: known(stage.outcome, ["pass", "constrained"] as const),
      publicState: known(stage.public_state, ["ready", "limited"] as const),
      finding: stage.primary_finding,
    };
  });
}

function stageViolations(profile: Json, readable: ReadableStage[]): RuleViolation[] {
  if (!Array.isArray(profile.stages)) return [];
  const out: RuleViolation[] = [];
  const stages = profile.stages as unknown[];
  // catalog spec rule 1: exactly five stages, in the fixed order.
  if (stages.length !== STAGES.length) {
    const names = readable.map((s) => s.stage ?? "?");
    out.push(
      v(
        "spec-rule-1",
        "stages",
        "a profile carries exactly five stages",
        `5 stages: ${STAGES.join(", ")}`,
        `${stages.length} stages: ${names.join(", ") || "none"}`,
      ),
    );
  }
  for (const s of readable) {
    const entry = isObject(stages[s.index]) ? (stages[s.index] as Json) : {};
    const at = `stages[${s.index}]`;
    const expectedName = STAGES[s.index];
    if (stages.length === STAGES.length && s.stage && expectedName && s.stage !== expectedName) {
      out.push(
        v(
          "spec-rule-1",
          `${at}.stage`,
          `stage ${s.index + 1} of 5 must be ${expectedName}`,
          JSON.stringify(expectedName),
          describe(s.stage),
        ),
      );
    }
    // catalog spec rule 2: pass ⇔ ready, constrained ⇔ limited.
    if (s.outcome && s.publicState && STATE_OF_OUTCOME[s.outcome] !== s.publicState) {
      const want = STATE_OF_OUTCOME[s.outcome];
      out.push(
        v(
          "spec-rule-2",
          `${at}.public_state`,
          `a stage with outcome "${s.outcome}" has public_state "${want}"`,
          JSON.stringify(want),
          describe(s.publicState),
        ),
      );
    }
    if (s.stage && isLabel(entry.stage_label, STAGE_LABEL_VALUES) && entry.stage_label !== STAGE_LABELS[s.stage]) {
      out.push(
        v(
          "stage-label",
          `${at}.stage_label`,
          `the label of stage "${s.stage}"`,
          JSON.stringify(STAGE_LABELS[s.stage]),
          describe(entry.stage_label),
        ),
      );
    }
    if (
      s.publicState &&
      isLabel(entry.state_label, STATE_LABEL_VALUES) &&
      entry.state_label !== STATE_LABELS[s.publicState]
    ) {
      out.push(
        v(
          "state-label",
          `${at}.state_label`,
          `the label of public_state "${s.publicState}"`,
          JSON.stringify(STATE_LABELS[s.publicState]),
          describe(entry.state_label),
        ),
      );
    }
    const code = isObject(s.finding) ? s.finding.signal_code : undefined;
    if (s.stage && typeof code === "string" && !SIGNAL_CODES[s.stage].includes(code)) {
      out.push(
        v(
          "signal-code",
          `${at}.primary_finding.signal_code`,
          signalCodeMessage(code, s.stage),
          oneOf(SIGNAL_CODES[s.stage]),
          describe(code),
        ),
      );
    }
  }
  return out;
}

function signalCodeMessage(code: string, stage: StageName): string {
  const owner = STAGES.find((name) => SIGNAL_CODES[name].includes(code));
  return owner
    ? `signal code "${code}" belongs to stage "${owner}", not "${stage}"`
    : `unknown signal code "${code}": not a signal of the catalog policy (a new code is a schema change)`;
}

/** Rules 3 and 4, and the all-pass decision: the profile's outcome, state and headline. */
function headlineViolations(profile: Json, stages: ReadableStage[]): RuleViolation[] {
  const constrained = STAGES.map((name) => stages.find((s) => s.stage === name)).find(
    (s) => s?.outcome === "constrained",
  );
  const allPass = stages.length === STAGES.length && stages.every((s) => s.outcome === "pass");
  const out: RuleViolation[] = [];
  const state = known(profile.public_state, ["ready", "limited"] as const);
  if (state && isLabel(profile.state_label, STATE_LABEL_VALUES) && profile.state_label !== STATE_LABELS[state]) {
    out.push(
      v(
        "state-label",
        "state_label",
        `the label of public_state "${state}"`,
        JSON.stringify(STATE_LABELS[state]),
        describe(profile.state_label),
      ),
    );
  }
  if (!constrained && !allPass) return out;
  const rule: RuleId = constrained ? "spec-rule-3" : "all-pass";
  const want = constrained
    ? { outcome: "constrained", state: "limited", why: `stage "${constrained.stage}" is constrained` }
    : { outcome: "pass", state: "ready", why: "all five stages pass" };
  if (known(profile.overall_outcome, ["pass", "constrained"] as const) && profile.overall_outcome !== want.outcome) {
    out.push(
      v(
        rule,
        "overall_outcome",
        `${want.why}, so overall_outcome is "${want.outcome}"`,
        JSON.stringify(want.outcome),
        describe(profile.overall_outcome),
      ),
    );
  }
  if (state && state !== want.state) {
    out.push(
      v(
        rule,
        "public_state",
        `${want.why}, so public_state is "${want.state}"`,
        JSON.stringify(want.state),
        describe(state),
      ),
    );
  }
  const headline = constrained ?? stages[0];
  if (headline?.stage)
    out.push(...primaryFindingViolations(profile.primary_finding, headline, constrained ? "spec-rule-4" : "all-pass"));
  return out;
}

function primaryFindingViolations(primary: unknown, headline: ReadableStage, rule: RuleId): RuleViolation[] {
  if (!isObject(primary) || !headline.stage) return [];
  const stage = headline.stage;
  const why =
    rule === "all-pass"
      ? "all stages pass, so the headline is the evaluate stage's"
      : `the first stage that is not pass is "${stage}"`;
  const expected: Json = {
    stage,
    stage_label: STAGE_LABELS[stage],
    public_state: headline.publicState ?? (headline.outcome && STATE_OF_OUTCOME[headline.outcome]),
  };
  const out: RuleViolation[] = [];
  for (const [field, want] of Object.entries(expected)) {
    if (want !== undefined && primary[field] !== undefined && primary[field] !== want) {
      out.push(v(rule, `primary_finding.${field}`, why, JSON.stringify(want), describe(primary[field])));
    }
  }
  if (isObject(primary.finding) && isObject(headline.finding)) {
    for (const field of ["signal_code", "condition", "finding", "context"]) {
      const want = headline.finding[field];
      const got = primary.finding[field];
      if (typeof want === "string" && got !== undefined && got !== want) {
        out.push(
          v(
            rule,
            `primary_finding.finding.${field}`,
            `${why}; repeat stages[${headline.index}].primary_finding.${field}`,
            describe(want),
            describe(got),
          ),
        );
      }
    }
  }
  return out;
}

function v(rule: RuleId, path: string, message: string, expected: string, found: string): RuleViolation {
  return { rule, path, message, expected, found };
}

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A label the schema accepts (an unknown one is the schema's to report, once). */
const isLabel = (value: unknown, labels: ReadonlySet<string>) => typeof value === "string" && labels.has(value);
const STAGE_LABEL_VALUES: ReadonlySet<string> = new Set(Object.values(STAGE_LABELS));
const STATE_LABEL_VALUES: ReadonlySet<string> = new Set(Object.values(STATE_LABELS));

function known<T extends string>(value: unknown, values: readonly T[]): T | undefined {
  return typeof value === "string" && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}
