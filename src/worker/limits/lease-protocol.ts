/**
 * What an isolate and a SubjectGuard say to each other about admission leases (docs/rate-limits.md "Admission
 * leases"). One RPC, `SubjectGuard.acquire`: the isolate asks for `want` admissions, hands back the
 * leases it has finished since its last call, and gets a lease, a direct admission (strict keys),
 * a refusal or the news that the subject is revoked.
 */
import type { RatePolicy } from "./gcra";

/**
 * How long a lease may admit, counted from the moment the isolate *sent* its request (before the
 * SubjectGuard granted it, so no clock of the SubjectGuard is trusted). It is the revocation bound: the
 * SubjectGuard refuses renewals from the moment it is revoked, and no lease outlives this.
 */
export const LEASE_TTL_MS = 1_000;
/** The isolate stops using a lease this much earlier: its frozen clock lags real time by at most that. */
export const LEASE_MARGIN_MS = 50;
/** One lease holds at most this share of the burst, so that one isolate cannot hold all of it. */
export const MAX_LEASE_SHARE = 1 / 4;
/** At most this many finished leases travel in one request; older ones simply expire. */
export const MAX_RETURNS = 32;

export const maxLeaseSize = (policy: RatePolicy): number => Math.max(1, Math.floor(policy.burst * MAX_LEASE_SHARE));

/** A lease the isolate is done with: exhausted (`unused` 0), or given up with `unused` admissions left. */
export interface LeaseReturn {
  id: string;
  unused: number;
}

export interface LeaseRequest {
  /** Admissions wanted (the SubjectGuard grants at most `maxLeaseSize`, and only what the policy has room for). */
  want: number;
  finished: LeaseReturn[];
  /** The subject's mode's policy; an operator override in the SubjectGuard wins. */
  policy: RatePolicy;
  /** One admission decided by the SubjectGuard itself, no lease (a lease came back too late to use). */
  direct?: boolean;
}

/** Milliseconds, relative to the SubjectGuard's clock when it answered. */
interface LimitState {
  policy: RatePolicy;
  /** Until the allowance is whole, if every admission granted so far was used at once. */
  resetMs: number;
  /** Until the allowance is whole at the latest, given the other outstanding leases (0 if none). */
  othersResetMs: number;
}

export interface GrantedLease {
  id: string;
  count: number;
  ttlMs: number;
}

export type LeaseReply =
  | (LimitState & { verdict: "revoked" })
  | (LimitState & { verdict: "limited"; retryAfterMs: number })
  /** `lease` null: one request admitted directly (a strict subject, or `direct`). `remaining`: what is left beyond it. */
  | (LimitState & { verdict: "allowed"; lease: GrantedLease | null; remaining: number; strict: boolean });
