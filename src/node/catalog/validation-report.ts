/**
 * The vocabulary of a validation report: one entry per broken rule, with a stable rule id, the JSON
 * path inside the profile, and the expected versus found values as printable text. Pure; shared by
 * the build script and anything else that validates profiles (Node and workerd alike).
 */

/** Stable rule ids; docs/catalog-build.md's rule id table documents each one. */
const RULE_IDS = {
  "json-syntax": "The input is not well-formed JSON (RFC 8259).",
  input: "The input is not a catalog: empty, a 0-byte file, a non-JSON file, or not a profile object.",
  schema: "A field is missing, unknown, of the wrong type, or outside its format or known values.",
  "canonical-json": "A value has no RFC 8785 form (e.g. a string with a lone UTF-16 surrogate).",
  "spec-rule-1": "Every profile carries exactly five stages in the order evaluate, sign_up, pay, provision, operate.",
  "spec-rule-2": "A stage with outcome pass is ready; a stage with outcome constrained is limited.",
  "spec-rule-3": "A profile with a constrained stage has overall_outcome constrained and public_state limited.",
  "spec-rule-4": "primary_finding repeats the headline of the first stage whose outcome is not pass.",
  "spec-rule-5": "When covered_signals equals required_signals, coverage.status is complete and ratio is 1.",
  "all-pass": "A profile whose five stages pass is pass/ready/Ready and repeats the evaluate headline.",
  "stage-label": "stage_label is the label of the stage it sits beside (evaluate → Evaluate, sign_up → Sign up, …).",
  "state-label": "state_label is the label of public_state (ready → Ready, limited → Limited).",
  "signal-code": "A finding's signal_code is one of the codes of its stage.",
  "coverage-status": "coverage.status is incomplete when covered_signals differs from required_signals.",
  "coverage-ratio": "coverage.ratio equals covered_signals / required_signals (within 1e-9).",
  "coverage-bounds": "covered_signals is at most required_signals.",
  "barrier-ratio": "coverage.barrier_ratio equals verified_barrier_signals / barrier_signals (within 1e-9).",
  "barrier-bounds": "verified_barrier_signals is at most barrier_signals.",
  "policy-consistency": "policy_digest and policy_version are identical across the catalog.",
  "unique-profile-id": "agent_readiness_profile_id is unique across the catalog.",
  "unique-scope": "The pair (scope.product.key, scope.funnel.key) is unique across the catalog.",
} as const;
export type RuleId = keyof typeof RULE_IDS;

export interface RuleViolation {
  rule: RuleId;
  /** JSON path inside the profile, e.g. `stages[2].public_state`; "" for the profile as a whole. */
  path: string;
  message: string;
  expected: string;
  found: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `["stages", 2, "public_state"]` → `stages[2].public_state`. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (typeof segment === "string" && IDENTIFIER.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

const MAX_SHOWN = 120;

/** A value as the report shows it: JSON, shortened; `(missing)` for an absent field. */
export function describe(value: unknown): string {
  if (value === undefined) return "(missing)";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** `one of "a", "b"` for an enumeration. */
export const oneOf = (values: readonly unknown[]) => `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;

/** The value at a path of a parsed JSON value, or undefined. */
export function valueAt(root: unknown, segments: readonly PropertyKey[]): unknown {
  let node = root;
  for (const segment of segments) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[segment];
  }
  return node;
}
