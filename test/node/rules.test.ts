/**
 * The rules engine, rule by rule: each case breaks one thing in a valid sample profile and pins the
 * exact report entry (rule id, JSON path, message, expected, found).
 */
import { describe, expect, it } from "vitest";
import { validateProfile } from "../../src/node/catalog/rules";
import { allPassProfile, allSamples, constrainedProfile, type Mutable } from "./profile-fixtures";

const broken = (base: Mutable, change: (p: Mutable) => void) => {
  const profile = structuredClone(base);
  change(profile);
  return validateProfile(profile);
};

describe("valid profiles", () => {
  it("every sample profile in data/profiles passes every rule", () => {
    for (const { file, profile } of allSamples()) expect([file, validateProfile(profile)]).toEqual([file, []]);
  });
});

describe("rule schema (zod)", () => {
  it("reports an unknown field with its path and value", () => {
    expect(broken(constrainedProfile(), (p) => (p.scope.product.colour = "blue"))).toEqual([
      {
        rule: "schema",
        path: "scope.product.colour",
        message: 'unknown field "colour"',
        expected: 'no field "colour" (the schema is strict: known fields only)',
        found: '"blue"',
      },
    ]);
  });

  it("reports a wrong type with the JSON type found", () => {
    expect(broken(constrainedProfile(), (p) => (p.coverage.required_signals = "14"))).toEqual([
      {
        rule: "schema",
        path: "coverage.required_signals",
        message: "must be a number",
        expected: "number",
        found: 'string "14"',
      },
    ]);
  });

  it("reports a missing field", () => {
    expect(broken(constrainedProfile(), (p) => delete p.entity_id)).toEqual([
      { rule: "schema", path: "entity_id", message: "missing required field", expected: "string", found: "(missing)" },
    ]);
  });

  it("reports a value outside the observed set as a deliberate schema change", () => {
    expect(broken(constrainedProfile(), (p) => (p.lifecycle = "retired"))).toEqual([
      {
        rule: "schema",
        path: "lifecycle",
        message: "not a known value (a new value is a deliberate schema change)",
        expected: 'one of "active"',
        found: '"retired"',
      },
    ]);
  });

  it("reports id, timestamp precision and URL formats", () => {
    const report = broken(constrainedProfile(), (p) => {
      p.agent_readiness_profile_id = "arp_123";
      p.last_tested_at = "2026-11-01T00:00:00Z";
      p.canonical_url = "http://agentready.example/x";
    });
    expect(report).toEqual([
      {
        rule: "schema",
        path: "agent_readiness_profile_id",
        message: "wrong format",
        expected: '"arp_" followed by 26 lowercase alphanumeric characters',
        found: '"arp_123"',
      },
      {
        rule: "schema",
        path: "last_tested_at",
        message: "wrong format",
        expected: "an ISO 8601 UTC timestamp with millisecond precision, e.g. 2026-11-20T12:34:56.789Z",
        found: '"2026-11-01T00:00:00Z"',
      },
      {
        rule: "schema",
        path: "canonical_url",
        message: "wrong format",
        expected: "an absolute https URL",
        found: '"http://agentready.example/x"',
      },
    ]);
  });

  it("names the array index in the path", () => {
    expect(broken(constrainedProfile(), (p) => (p.stages[3].outcome = "blocked"))).toEqual([
      {
        rule: "schema",
        path: "stages[3].outcome",
        message: "not a known value (a new value is a deliberate schema change)",
        expected: 'one of "pass", "constrained"',
        found: '"blocked"',
      },
    ]);
  });
});

describe("catalog spec rules 1–5", () => {
  it("rule 1: exactly five stages", () => {
    expect(broken(constrainedProfile(), (p) => p.stages.pop())).toEqual([
      {
        rule: "spec-rule-1",
        path: "stages",
        message: "a profile carries exactly five stages",
        expected: "5 stages: evaluate, sign_up, pay, provision, operate",
        found: "4 stages: evaluate, sign_up, pay, provision",
      },
    ]);
  });

  it("rule 1: in the fixed order", () => {
    expect(broken(allPassProfile(), (p) => ([p.stages[1], p.stages[2]] = [p.stages[2], p.stages[1]]))).toEqual([
      {
        rule: "spec-rule-1",
        path: "stages[1].stage",
        message: "stage 2 of 5 must be sign_up",
        expected: '"sign_up"',
        found: '"pay"',
      },
      {
        rule: "spec-rule-1",
        path: "stages[2].stage",
        message: "stage 3 of 5 must be pay",
        expected: '"pay"',
        found: '"sign_up"',
      },
    ]);
  });

  it("rule 2: a pass stage is ready, a constrained stage is limited", () => {
    expect(broken(constrainedProfile(), (p) => (p.stages[4].public_state = "ready"))).toEqual([
      {
        rule: "spec-rule-2",
        path: "stages[4].public_state",
        message: 'a stage with outcome "constrained" has public_state "limited"',
        expected: '"limited"',
        found: '"ready"',
      },
      {
        rule: "state-label",
        path: "stages[4].state_label",
        message: 'the label of public_state "ready"',
        expected: '"Ready"',
        found: '"Limited"',
      },
    ]);
  });

  it("rule 3: a constrained stage makes the profile constrained and limited", () => {
    const report = broken(constrainedProfile(), (p) => {
      p.overall_outcome = "pass";
      p.public_state = "ready";
      p.state_label = "Ready";
    });
    expect(report).toEqual([
      {
        rule: "spec-rule-3",
        path: "overall_outcome",
        message: 'stage "sign_up" is constrained, so overall_outcome is "constrained"',
        expected: '"constrained"',
        found: '"pass"',
      },
      {
        rule: "spec-rule-3",
        path: "public_state",
        message: 'stage "sign_up" is constrained, so public_state is "limited"',
        expected: '"limited"',
        found: '"ready"',
      },
    ]);
  });

  it("rule 4: primary_finding repeats the first non-pass stage's headline", () => {
    const report = broken(constrainedProfile(), (p) => {
      p.primary_finding = {
        stage: "operate",
        stage_label: "Operate",
        public_state: "limited",
        finding: p.stages[4].primary_finding,
      };
    });
    const why = 'the first stage that is not pass is "sign_up"';
    expect(report).toEqual([
      { rule: "spec-rule-4", path: "primary_finding.stage", message: why, expected: '"sign_up"', found: '"operate"' },
      {
        rule: "spec-rule-4",
        path: "primary_finding.stage_label",
        message: why,
        expected: '"Sign up"',
        found: '"Operate"',
      },
      {
        rule: "spec-rule-4",
        path: "primary_finding.finding.signal_code",
        message: `${why}; repeat stages[1].primary_finding.signal_code`,
        expected: '"access_entrypoint_stability"',
        found: '"failure_contract"',
      },
      expect.objectContaining({ rule: "spec-rule-4", path: "primary_finding.finding.condition" }),
      expect.objectContaining({ rule: "spec-rule-4", path: "primary_finding.finding.finding" }),
      expect.objectContaining({ rule: "spec-rule-4", path: "primary_finding.finding.context" }),
    ]);
  });

  it("rule 4: one changed word of the headline is reported", () => {
    const report = broken(constrainedProfile(), (p) => (p.primary_finding.finding.context += "!"));
    expect(report).toHaveLength(1);
    expect(report[0]).toMatchObject({ rule: "spec-rule-4", path: "primary_finding.finding.context" });
  });

  it("rule 5: covered == required means complete with ratio 1", () => {
    const report = broken(constrainedProfile(), (p) => {
      p.coverage.status = "incomplete";
      p.coverage.ratio = 0.9;
    });
    expect(report).toEqual([
      {
        rule: "spec-rule-5",
        path: "coverage.status",
        message: "covered_signals equals required_signals (14 of 14)",
        expected: '"complete"',
        found: '"incomplete"',
      },
      {
        rule: "spec-rule-5",
        path: "coverage.ratio",
        message: "ratio is covered_signals / required_signals",
        expected: "1",
        found: "0.9",
      },
    ]);
  });
});

describe("docs/contract.md decisions", () => {
  it("all-pass: a profile whose stages all pass is pass/ready and headlines evaluate", () => {
    const report = broken(allPassProfile(), (p) => {
      p.overall_outcome = "constrained";
      p.public_state = "limited";
      p.state_label = "Limited";
      p.primary_finding.stage = "pay";
    });
    expect(report).toEqual([
      {
        rule: "all-pass",
        path: "overall_outcome",
        message: 'all five stages pass, so overall_outcome is "pass"',
        expected: '"pass"',
        found: '"constrained"',
      },
      {
        rule: "all-pass",
        path: "public_state",
        message: 'all five stages pass, so public_state is "ready"',
        expected: '"ready"',
        found: '"limited"',
      },
      {
        rule: "all-pass",
        path: "primary_finding.stage",
        message: "all stages pass, so the headline is the evaluate stage's",
        expected: '"evaluate"',
        found: '"pay"',
      },
    ]);
  });

  it("coverage-status: covered < required means incomplete", () => {
    const report = broken(constrainedProfile(), (p) => {
      p.coverage.covered_signals = 13;
      p.coverage.ratio = 13 / 14;
    });
    expect(report).toEqual([
      {
        rule: "coverage-status",
        path: "coverage.status",
        message: "covered_signals differs from required_signals (13 of 14)",
        expected: '"incomplete"',
        found: '"complete"',
      },
    ]);
  });

  it("coverage-ratio: within 1e-9 passes, beyond fails", () => {
    const partial = (ratio: number) =>
      broken(constrainedProfile(), (p) =>
        Object.assign(p.coverage, { status: "incomplete", covered_signals: 12, ratio }),
      );
    expect(partial(12 / 14 + 5e-10)).toEqual([]);
    expect(partial(0.857)).toEqual([
      {
        rule: "coverage-ratio",
        path: "coverage.ratio",
        message: "ratio is covered_signals / required_signals",
        expected: "0.8571428571428571 (12 / 14, ±1e-9)",
        found: "0.857",
      },
    ]);
  });

  it("coverage-bounds: covered ≤ required", () => {
    const report = broken(constrainedProfile(), (p) =>
      Object.assign(p.coverage, { covered_signals: 15, status: "incomplete", ratio: 1 }),
    );
    expect(report).toContainEqual({
      rule: "coverage-bounds",
      path: "coverage.covered_signals",
      message: "covered_signals cannot exceed required_signals",
      expected: "at most 14 (required_signals)",
      found: "15",
    });
  });

  it("barrier-ratio and barrier-bounds", () => {
    expect(broken(constrainedProfile(), (p) => (p.coverage.barrier_ratio = 0.5))).toEqual([
      {
        rule: "barrier-ratio",
        path: "coverage.barrier_ratio",
        message: "barrier_ratio is verified_barrier_signals / barrier_signals",
        expected: "0.8 (4 / 5, ±1e-9)",
        found: "0.5",
      },
    ]);
    expect(
      broken(constrainedProfile(), (p) =>
        Object.assign(p.coverage, { verified_barrier_signals: 6, barrier_ratio: 1.2 }),
      ),
    ).toContainEqual({
      rule: "barrier-bounds",
      path: "coverage.verified_barrier_signals",
      message: "verified_barrier_signals cannot exceed barrier_signals",
      expected: "at most 5 (barrier_signals)",
      found: "6",
    });
  });

  it("stage-label: each stage carries its own label", () => {
    expect(broken(constrainedProfile(), (p) => (p.stages[1].stage_label = "Signup"))).toEqual([
      {
        rule: "schema",
        path: "stages[1].stage_label",
        message: "not a known value (a new value is a deliberate schema change)",
        expected: 'one of "Evaluate", "Sign up", "Pay", "Provision", "Operate"',
        found: '"Signup"',
      },
    ]);
    expect(broken(constrainedProfile(), (p) => (p.stages[2].stage_label = "Provision"))).toEqual([
      {
        rule: "stage-label",
        path: "stages[2].stage_label",
        message: 'the label of stage "pay"',
        expected: '"Pay"',
        found: '"Provision"',
      },
    ]);
  });

  it("state-label: the profile's label matches its public_state", () => {
    expect(broken(constrainedProfile(), (p) => (p.state_label = "Ready"))).toEqual([
      {
        rule: "state-label",
        path: "state_label",
        message: 'the label of public_state "limited"',
        expected: '"Limited"',
        found: '"Ready"',
      },
    ]);
  });

  it("signal-code: a code of another stage, and an unknown code", () => {
    const report = broken(allPassProfile(), (p) => {
      p.stages[2].primary_finding.signal_code = "failure_contract";
      p.stages[4].primary_finding.signal_code = "uptime_history";
    });
    expect(report).toEqual([
      {
        rule: "signal-code",
        path: "stages[2].primary_finding.signal_code",
        message: 'signal code "failure_contract" belongs to stage "operate", not "pay"',
        expected: 'one of "commitment_disclosure", "self_service_purchase"',
        found: '"failure_contract"',
      },
      {
        rule: "signal-code",
        path: "stages[4].primary_finding.signal_code",
        message:
          'unknown signal code "uptime_history": not a signal of the catalog policy (a new code is a schema change)',
        expected: 'one of "failure_contract"',
        found: '"uptime_history"',
      },
    ]);
  });
});

describe("the whole report", () => {
  it("reports every violation of a profile, not the first", () => {
    const report = broken(constrainedProfile(), (p) => {
      p.grade = "A+";
      p.stages[0].public_state = "limited";
      p.stages[0].state_label = "Limited";
      p.coverage.barrier_ratio = 0;
      p.surprise = true;
    });
    expect(report.map((v) => `${v.rule} ${v.path}`)).toEqual([
      "schema grade",
      "schema surprise",
      "spec-rule-2 stages[0].public_state",
      "barrier-ratio coverage.barrier_ratio",
    ]);
  });

  it("a non-object is one schema violation, not a crash", () => {
    expect(validateProfile([])).toEqual([
      { rule: "schema", path: "", message: "must be an object", expected: "object", found: "array []" },
    ]);
    expect(validateProfile(null)).toHaveLength(1);
  });
});
