/**
 * When a delivery is tried again: the Standard Webhooks recommendation (immediately, then after
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), eight attempts over about 27.6 hours, so a receiver
 * that is down for a day still gets the event. Queue delays are at most 12 h, which every step is.
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** Seconds to wait after failed attempt `attempt` (1-based) before the next; null when it was the last. */
export function retryDelayAfter(attempt: number): number | null {
  return RETRY_DELAYS_SECONDS[attempt - 1] ?? null;
}

/** The delivery's whole span: the last attempt happens this long after the first. */
export const RETRY_SPAN_SECONDS = RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);
