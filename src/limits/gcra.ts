/**
 * The generic cell rate algorithm (GCRA, ITU-T I.371; the "virtual scheduling" form): one number of
 * state per subject, the theoretical arrival time (TAT) of the next request. A request is admitted
 * when it does not arrive more than `burst` emission intervals before its TAT. Pure: the caller
 * keeps the TAT and passes the clock, so tests drive time directly.
 */

/** `rate` requests per second sustained, `burst` requests at once from idle. */
export interface RatePolicy {
  rate: number;
  burst: number;
}

export interface GcraDecision {
  allowed: boolean;
  /** The TAT to keep (unchanged when refused). */
  tat: number;
  /** Requests that would still be admitted right now, after this one. */
  remaining: number;
  /** Milliseconds until a retry can be admitted (0 when allowed). */
  retryAfterMs: number;
  /** Milliseconds until the whole burst is available again. */
  resetMs: number;
}

/** Float slack for intervals like 1000/3 ms; far below any clock resolution. */
const EPSILON_MS = 1e-6;

export function gcraDecide(tat: number | undefined, now: number, policy: RatePolicy): GcraDecision {
  const interval = 1000 / policy.rate;
  const tolerance = interval * policy.burst;
  const base = Math.max(tat ?? now, now);
  const nextTat = base + interval;
  const allowAt = nextTat - tolerance;
  if (now + EPSILON_MS < allowAt) {
    return { allowed: false, tat: base, remaining: 0, retryAfterMs: allowAt - now, resetMs: base - now };
  }
  const remaining = Math.max(0, Math.floor((now - allowAt) / interval + EPSILON_MS));
  return { allowed: true, tat: nextTat, remaining, retryAfterMs: 0, resetMs: nextTat - now };
}
