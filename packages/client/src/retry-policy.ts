/**
 * When to retry a failed request and how long to wait first. Pure: the caller supplies the time
 * and the random source, so a test can replay a schedule exactly.
 *
 * - 429 and 503 are retried after `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP-date)
 *   when the server sent one; without it they, 500, 502, 504 and network failures back off
 *   exponentially with full jitter (delay = random × min(cap, base × 2^retry)), capped.
 * - Every other status — 401, 403, 404, any 4xx — is final: retrying cannot change the answer.
 */
export interface RetryPolicy {
  /** Tries per request, the first one included. */
  maxAttempts: number;
  /** Backoff of the first retry before jitter, in ms; doubles with each retry. */
  baseDelayMs: number;
  /** Upper bound of a backoff delay before jitter, in ms. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the request fails and says when to come back. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const HONOURS_RETRY_AFTER = new Set([429, 503]);

export type AttemptOutcome = { status: number; retryAfter: string | null } | { networkError: string };

export type RetryDecision = { retry: true; delayMs: number; reason: string } | { retry: false; reason: string };

/** `attempt` is the number of the attempt that just failed (1 for the first). */
export function decideRetry(
  outcome: AttemptOutcome,
  attempt: number,
  nowMs: number,
  policy: RetryPolicy,
  random: () => number,
): RetryDecision {
  const what = "status" in outcome ? `HTTP ${outcome.status}` : `network error (${outcome.networkError})`;
  if ("status" in outcome && !RETRIED_STATUSES.has(outcome.status)) return { retry: false, reason: `${what} is final` };
  if (attempt >= policy.maxAttempts) return { retry: false, reason: `${what} after ${attempt} attempts` };

  if ("status" in outcome && HONOURS_RETRY_AFTER.has(outcome.status) && outcome.retryAfter !== null) {
    const delayMs = retryAfterMs(outcome.retryAfter, nowMs);
    if (delayMs !== null) {
      if (delayMs > policy.maxRetryAfterMs) {
        return {
          retry: false,
          reason: `${what}: the server asks to wait ${Math.ceil(delayMs / 1000)} s (Retry-After), longer than this client waits`,
        };
      }
      return { retry: true, delayMs, reason: `${what}, Retry-After ${outcome.retryAfter}` };
    }
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return { retry: true, delayMs: Math.floor(random() * ceiling), reason: `${what}, backoff up to ${ceiling} ms` };
}

/** RFC 9110 §10.2.3: Retry-After = HTTP-date / delay-seconds. Null when it is neither. */
export function retryAfterMs(value: string, nowMs: number): number | null {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
