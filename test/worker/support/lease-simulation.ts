/**
 * Tools for the lease tests: seeded randomness, and the check that a sequence of admissions is one
 * the policy allows.
 */
import { gcraDecide, type RatePolicy } from "../../../src/limits/gcra";

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The first admission (by time) that GCRA would have refused, or null when the whole sequence
 * conforms: then no window of time saw more admissions than `burst` at once plus `rate` per second.
 */
export function firstNonConforming(times: readonly number[], policy: RatePolicy): number | null {
  let tat: number | undefined;
  for (const time of [...times].sort((a, b) => a - b)) {
    const decision = gcraDecide(tat, time, policy);
    if (!decision.allowed) return time;
    tat = decision.tat;
  }
  return null;
}

