/**
 * What the isolate decides for one request, and the limit state it reports with it (the values
 * of `RateLimit`, src/worker/limits/headers.ts):
 * - `remaining`: after a direct admission, the SubjectGuard's exact room. From a lease: what this
 *   isolate still holds, plus what the SubjectGuard had not given out at its last answer — its
 *   remaining at the grant minus what was used here since, with no refill added. Exact while one
 *   isolate serves the key (the SubjectGuard's room then only grows); with several, what other isolates
 *   were granted after that answer (≤ 1 s ago) is not subtracted.
 * - `resetMs`: when the allowance is whole at the latest. The SubjectGuard's TAT A counts every granted
 *   admission as used at its grant; admissions used later can only push that to the TAT of this
 *   isolate's own spends (`spentTat`, a GCRA TAT over them alone: the merged TAT is at most the
 *   larger of the two), and the U admissions still held, usable until E, to max(…, E) + U·T. Other
 *   isolates' leases are bounded the same way by the SubjectGuard (`othersResetMs`). Exact as a bound
 *   for a key served by one isolate; other isolates' past spends are not known here.
 * Times here are this isolate's clock; the SubjectGuard's relative figures are counted from when its
 * reply arrived, which is after it computed them, so they only ever grow stale upwards.
 */
import type { RatePolicy } from "./gcra";
import type { LeaseReply } from "./lease-protocol";

export type AdmissionVerdict = "allowed" | "limited" | "revoked";
export interface Admission {
  verdict: AdmissionVerdict;
  /** Admitted from this isolate's lease, with no RPC (false: decided by the SubjectGuard). */
  leased: boolean;
  policy: RatePolicy;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
}

/** The last thing a subject's SubjectGuard said about its allowance, on this isolate's clock. */
export interface LimitView {
  policy: RatePolicy | undefined;
  /** What the SubjectGuard had not given out when it last admitted or granted. */
  unleased: number;
  /** GCRA TAT over this isolate's own admissions from leases. */
  spentTat: number;
  resetAt: number;
  othersResetAt: number;
  limitedUntil: number;
}

export function viewOf(reply: LeaseReply, sentAt: number, receivedAt: number, previous: LimitView): LimitView {
  return {
    policy: reply.policy,
    spentTat: previous.spentTat,
    unleased: reply.verdict === "allowed" ? reply.remaining : 0,
    resetAt: receivedAt + reply.resetMs,
    othersResetAt: receivedAt + reply.othersResetMs,
    limitedUntil:
      reply.verdict === "limited"
        ? sentAt + reply.retryAfterMs
        : reply.verdict === "allowed"
          ? 0
          : previous.limitedUntil,
  };
}

/** Admitted from a lease at `now` (counted in `view.spentTat` already): `left` admissions still held here, the last lease ending at `lastUntil`. */
export function leaseAdmission(
  view: LimitView,
  fallback: RatePolicy,
  now: number,
  left: number,
  lastUntil: number,
): Admission {
  const policy = view.policy ?? fallback;
  const held = left > 0 ? Math.max(view.spentTat, lastUntil) + (left * 1000) / policy.rate : 0;
  const wholeAt = Math.max(view.resetAt, view.othersResetAt, view.spentTat, held);
  return {
    verdict: "allowed",
    leased: true,
    policy,
    remaining: left + view.unleased,
    resetMs: Math.max(0, wholeAt - now),
    retryAfterMs: 0,
  };
}

/** Admitted by the SubjectGuard itself: its figures are exact at that moment. */
export function directAdmission(reply: LeaseReply & { verdict: "allowed" }): Admission {
  return {
    verdict: "allowed",
    leased: false,
    policy: reply.policy,
    remaining: reply.remaining,
    resetMs: Math.max(reply.resetMs, reply.othersResetMs),
    retryAfterMs: 0,
  };
}

export function refusal(verdict: "limited" | "revoked", view: LimitView, fallback: RatePolicy, now: number): Admission {
  const policy = view.policy ?? fallback;
  if (verdict === "revoked") return { verdict, leased: false, policy, remaining: 0, resetMs: 0, retryAfterMs: 0 };
  const resetMs = Math.max(0, view.resetAt - now, view.othersResetAt - now);
  return { verdict, leased: false, policy, remaining: 0, resetMs, retryAfterMs: Math.max(0, view.limitedUntil - now) };
}
