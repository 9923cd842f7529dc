/** gcraDecide and the header values, driven with explicit clocks (no waiting, no wall clock). */
import { describe, expect, it } from "vitest";
import { gcraDecide, type RatePolicy } from "../../src/worker/limits/gcra";
import { rateLimitPolicyValue, rateLimitValue, retryAfterSeconds } from "../../src/worker/limits/headers";
import { DEFAULT_RATE_LIMITS, policyForMode } from "../../src/worker/limits/policy";

/** Runs requests at the given instants (ms), returning each decision and the final TAT. */
function run(policy: RatePolicy, instants: number[]) {
  let tat: number | undefined;
  return instants.map((now) => {
    const decision = gcraDecide(tat, now, policy);
    tat = decision.tat;
    return decision;
  });
}

describe("gcraDecide", () => {
  it("admits exactly `burst` requests at once from idle, counting `remaining` down to 0", () => {
    const decisions = run({ rate: 100, burst: 100 }, Array(150).fill(0));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
    expect(decisions.slice(0, 100).map((d) => d.remaining)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
    expect(decisions.slice(100).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
  });

  it("then admits at the sustained rate: one request per emission interval", () => {
    const policy = { rate: 25, burst: 25 };
    const burst = run(policy, Array(25).fill(0));
    let tat = burst.at(-1)!.tat;
    const admittedPerSecond: number[] = [];
    for (let second = 0; second < 3; second++) {
      let admitted = 0;
      for (let ms = second * 1000 + 1; ms <= (second + 1) * 1000; ms++) {
        const d = gcraDecide(tat, ms, policy);
        tat = d.tat;
        if (d.allowed) admitted++;
      }
      admittedPerSecond.push(admitted);
    }
    expect(admittedPerSecond).toEqual([25, 25, 25]);
  });

  it("says when a retry succeeds: refused 1 ms before retryAfterMs, admitted exactly at it", () => {
    for (const policy of [
      { rate: 100, burst: 100 },
      { rate: 3, burst: 2 },
      { rate: 0.5, burst: 1 },
    ]) {
      const decisions = run(policy, Array(policy.burst + 1).fill(1000));
      const refused = decisions.at(-1)!;
      expect(refused.allowed).toBe(false);
      const tat = decisions.at(-2)!.tat;
      expect(gcraDecide(tat, 1000 + refused.retryAfterMs - 1, policy).allowed).toBe(false);
      expect(gcraDecide(tat, 1000 + refused.retryAfterMs, policy).allowed).toBe(true);
    }
  });

  it("leaves the TAT unchanged when it refuses, so refused requests cost no budget", () => {
    const policy = { rate: 1, burst: 1 };
    const [first, second, third] = run(policy, [0, 10, 20]);
    expect(first!.allowed).toBe(true);
    expect(second!.allowed).toBe(false);
    expect(third!.tat).toBe(first!.tat);
    expect(gcraDecide(third!.tat, 1000, policy).allowed).toBe(true);
  });

  it("reports how long until the whole burst is back (resetMs)", () => {
    const decisions = run({ rate: 10, burst: 5 }, [0, 0, 0]);
    expect(decisions.map((d) => d.resetMs)).toEqual([100, 200, 300]);
  });

  it("forgets nothing it needs: a TAT in the past is a full bucket", () => {
    expect(gcraDecide(5_000, 60_000, { rate: 10, burst: 5 })).toMatchObject({ allowed: true, remaining: 4 });
    expect(gcraDecide(undefined, 60_000, { rate: 10, burst: 5 })).toMatchObject({ allowed: true, remaining: 4 });
  });
});

describe("header values", () => {
  it("writes RateLimit-Policy as the draft's quota policy: q requests per w seconds", () => {
    expect(rateLimitPolicyValue({ rate: 100, burst: 100 })).toBe('"default";q=100;w=1');
    expect(rateLimitPolicyValue({ rate: 25, burst: 25 })).toBe('"default";q=25;w=1');
    expect(rateLimitPolicyValue({ rate: 10, burst: 50 })).toBe('"default";q=50;w=5');
  });

  it("writes RateLimit with r remaining and t rounded up", () => {
    expect(rateLimitValue(42, 0)).toBe('"default";r=42;t=0');
    expect(rateLimitValue(42, 580)).toBe('"default";r=42;t=1');
    expect(rateLimitValue(0, 2000)).toBe('"default";r=0;t=2');
  });

  it("rounds Retry-After up to whole seconds, at least 1: never earlier than a retry can succeed", () => {
    expect([0.001, 10, 999, 1000, 1001, 9_999].map(retryAfterSeconds)).toEqual([1, 1, 1, 1, 2, 10]);
  });
});

describe("policies per mode", () => {
  it("default to live 100 req/s and test 25 req/s, each with a one-second burst", () => {
    expect(policyForMode(undefined, "live")).toEqual({ rate: 100, burst: 100 });
    expect(policyForMode(undefined, "test")).toEqual({ rate: 25, burst: 25 });
    expect(DEFAULT_RATE_LIMITS.live.rate / DEFAULT_RATE_LIMITS.test.rate).toBe(4);
  });

  it("takes each mode's policy from the checked var (a malformed var: worker-env.test.ts)", () => {
    const slow = { live: { rate: 10, burst: 5 }, test: { rate: 2, burst: 1 } };
    expect(policyForMode(slow, "live")).toEqual({ rate: 10, burst: 5 });
    expect(policyForMode(slow, "test")).toEqual({ rate: 2, burst: 1 });
  });
});
