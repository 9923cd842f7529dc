/**
 * Coverage rules: catalog spec rule 5 and the decisions of docs/contract.md on coverage
 * (complete exactly when covered == required; ratios within 1e-9; counts within their totals).
 */
import { describe, type RuleId, type RuleViolation } from "./validation-report";

const RATIO_TOLERANCE = 1e-9;

const count = (value: unknown) => (Number.isInteger(value) && (value as number) >= 0 ? (value as number) : undefined);
const ratio = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

export function coverageViolations(coverage: unknown): RuleViolation[] {
  if (coverage === null || typeof coverage !== "object" || Array.isArray(coverage)) return [];
  const c = coverage as Record<string, unknown>;
  const required = count(c.required_signals);
  const covered = count(c.covered_signals);
  const barrier = count(c.barrier_signals);
  const verified = count(c.verified_barrier_signals);
  const out: RuleViolation[] = [];
  const push = (rule: RuleId, field: string, message: string, expected: string, found: unknown) =>
    out.push({ rule, path: `coverage.${field}`, message, expected, found: describe(found) });

  if (required !== undefined && covered !== undefined) {
    if (covered > required) {
      push(
        "coverage-bounds",
        "covered_signals",
        "covered_signals cannot exceed required_signals",
        `at most ${required} (required_signals)`,
        covered,
      );
    }
    const complete = covered === required;
    if (c.status === "complete" || c.status === "incomplete") {
      const want = complete ? "complete" : "incomplete";
      if (c.status !== want) {
        // catalog spec rule 5 (complete), docs/contract.md "Profiles" (incomplete)
        push(
          complete ? "spec-rule-5" : "coverage-status",
          "status",
          `covered_signals ${complete ? "equals" : "differs from"} required_signals (${covered} of ${required})`,
          JSON.stringify(want),
          c.status,
        );
      }
    }
    const got = ratio(c.ratio);
    if (required > 0 && got !== undefined && Math.abs(got - covered / required) > RATIO_TOLERANCE) {
      const expected = complete ? "1" : `${covered / required} (${covered} / ${required}, ±${RATIO_TOLERANCE})`;
      push(
        complete ? "spec-rule-5" : "coverage-ratio",
        "ratio",
        "ratio is covered_signals / required_signals",
        expected,
        got,
      );
    }
  }
  if (barrier !== undefined && verified !== undefined) {
    if (verified > barrier) {
      push(
        "barrier-bounds",
        "verified_barrier_signals",
        "verified_barrier_signals cannot exceed barrier_signals",
        `at most ${barrier} (barrier_signals)`,
        verified,
      );
    }
    const got = ratio(c.barrier_ratio);
    if (barrier > 0 && got !== undefined && Math.abs(got - verified / barrier) > RATIO_TOLERANCE) {
      push(
        "barrier-ratio",
        "barrier_ratio",
        "barrier_ratio is verified_barrier_signals / barrier_signals",
        `${verified / barrier} (${verified} / ${barrier}, ±${RATIO_TOLERANCE})`,
        got,
      );
    }
  }
  return out;
}
