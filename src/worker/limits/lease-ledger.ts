/**
 * The SubjectGuard's admission ledger: GCRA (src/worker/limits/gcra.ts) extended with leases. Pure: the
 * caller passes the clock, so tests drive time directly.
 *
 * GCRA as a bucket: capacity B (burst), refilled at ρ (rate) per second; an admission takes one
 * token. TAT = the time the bucket would be full: level C = B − (TAT − now)/T, with T = 1000/ρ ms.
 *
 * A lease of n is n tokens taken at the grant (TAT += n·T, exactly as n direct admissions would,
 * and only if the bucket has them), which the holder may spend at any moment until the lease ends.
 * Taking a token early is not enough to never over-admit: an unspent token held outside the bucket
 * would let the bucket refill past B meanwhile (a lease of B taken at 0 and spent at 0.9 s, on top
 * of a bucket that refilled, is more than B at once). So while leases holding G tokens in all are
 * outstanding, the bucket refills only up to B − G: TAT ≥ now + G·T. That is the whole invariant.
 *
 * Why it holds. Let R be the real bucket (tokens taken when actually spent, capped at B) and U the
 * tokens granted but not yet spent (U ≤ G). Then R ≥ C + U at all times: a grant moves tokens from
 * C to U, a spend from U out of R, an expiry drops unspent U, and a refill of R to B leaves
 * C + U ≤ (B − G) + U ≤ B. So every spend finds R ≥ U ≥ 1: the actual admissions are a GCRA-
 * conforming sequence, however several holders and direct admissions interleave.
 *
 * A holder may finish a lease early, giving back the `unused` tokens it promises never to spend:
 * G drops by the lease's count and TAT goes back by unused·T (C + U is unchanged, and C stays
 * ≤ B − G). A lease nobody finished ends at its expiry; the cap it imposed until then is applied
 * first (TAT ≥ expiry + G·T), then G drops. The cost is under-admission only: unspent tokens of a
 * lease that expires are lost, and the bucket refills less while leases are held.
 */
import type { RatePolicy } from "./gcra";
import {
  LEASE_TTL_MS,
  MAX_RETURNS,
  maxLeaseSize,
  type GrantedLease,
  type LeaseReply,
  type LeaseRequest,
  type LeaseReturn,
} from "./lease-protocol";

/** Float slack for intervals like 1000/3 ms; far below any clock resolution. */
const EPSILON = 1e-6;

interface Outstanding {
  count: number;
  expiresAt: number;
}

export type LedgerDecision =
  | { allowed: true; lease: GrantedLease | null; remaining: number; resetMs: number; othersResetMs: number }
  | { allowed: false; retryAfterMs: number; resetMs: number; othersResetMs: number };

const intervalOf = (policy: RatePolicy) => 1000 / policy.rate;

export class LeaseLedger {
  #tat: number | undefined;
  readonly #leases = new Map<string, Outstanding>();
  #held = 0;
  #issued = 0;
  readonly #prefix = crypto.randomUUID().slice(0, 8);

  constructor(tat?: number) {
    this.#tat = tat;
  }

  /** The TAT to keep (undefined: the bucket is full and nothing is held). */
  get tat(): number | undefined {
    return this.#tat;
  }

  /** When the last outstanding lease ends (0 if none). */
  get leasesEndAt(): number {
    let end = 0;
    for (const lease of this.#leases.values()) end = Math.max(end, lease.expiresAt);
    return end;
  }

  /** Forgets the TAT (a new policy starts from a full bucket); outstanding leases still count. */
  restart(): void {
    this.#tat = undefined;
  }

  /** Takes back finished leases, then grants up to `want` admissions as one lease. */
  grant(now: number, policy: RatePolicy, want: number, finished: readonly LeaseReturn[]): LedgerDecision {
    const interval = intervalOf(policy);
    this.#settle(now, interval);
    for (const done of finished) this.#finish(done, interval);
    const room = this.#room(now, policy);
    const wanted = Number.isFinite(want) ? Math.max(1, Math.floor(want)) : 1;
    const count = Math.min(wanted, maxLeaseSize(policy), room);
    if (count < 1) return this.#refusal(now, policy);
    const id = `${this.#prefix}-${++this.#issued}`;
    this.#tat = this.#base(now, interval) + count * interval;
    this.#held += count;
    this.#leases.set(id, { count, expiresAt: now + LEASE_TTL_MS });
    return {
      allowed: true,
      lease: { id, count, ttlMs: LEASE_TTL_MS },
      remaining: room - count,
      ...this.#resets(now, interval, id),
    };
  }

  /** One admission decided here and now, without a lease (strict subjects). */
  admitOne(now: number, policy: RatePolicy, finished: readonly LeaseReturn[] = []): LedgerDecision {
    const interval = intervalOf(policy);
    this.#settle(now, interval);
    for (const done of finished) this.#finish(done, interval);
    const room = this.#room(now, policy);
    if (room < 1) return this.#refusal(now, policy);
    this.#tat = this.#base(now, interval) + interval;
    return { allowed: true, lease: null, remaining: room - 1, ...this.#resets(now, interval) };
  }

  /** Admissions the bucket could give right now (at most B − G). */
  #room(now: number, policy: RatePolicy): number {
    const interval = intervalOf(policy);
    return Math.max(0, Math.floor((now + interval * policy.burst - this.#base(now, interval)) / interval + EPSILON));
  }

  #base(now: number, interval: number): number {
    return Math.max(this.#tat ?? now, now + this.#held * interval);
  }

  /** Leases whose time is up: in expiry order, the cap each imposed until then, then their end. */
  #settle(now: number, interval: number): void {
    const due = [...this.#leases]
      .filter(([, lease]) => lease.expiresAt <= now)
      .sort(([, a], [, b]) => a.expiresAt - b.expiresAt);
    for (const [id, lease] of due) {
      this.#capAt(lease.expiresAt, interval);
      this.#held -= lease.count;
      this.#leases.delete(id);
    }
    this.#capAt(now, interval);
  }

  #capAt(time: number, interval: number): void {
    if (this.#held > 0) this.#tat = Math.max(this.#tat ?? time, time + this.#held * interval);
  }

  /** An unknown id (expired, or granted before a restart) gives nothing back. */
  #finish(done: LeaseReturn, interval: number): void {
    const lease = this.#leases.get(done.id);
    if (!lease) return;
    const unused = Number.isInteger(done.unused) ? Math.min(Math.max(done.unused, 0), lease.count) : 0;
    this.#held -= lease.count;
    this.#leases.delete(done.id);
    if (this.#tat !== undefined) this.#tat -= unused * interval;
  }

  #refusal(now: number, policy: RatePolicy): LedgerDecision {
    return { allowed: false, retryAfterMs: this.#retryAfterMs(now, policy), ...this.#resets(now, intervalOf(policy)) };
  }

  /** The first moment one admission fits, if every outstanding lease is held until it expires. */
  #retryAfterMs(now: number, policy: RatePolicy): number {
    const interval = intervalOf(policy);
    const tolerance = interval * policy.burst;
    let tat = this.#base(now, interval);
    let held = this.#held;
    let time = now;
    for (const lease of [...this.#leases.values()].sort((a, b) => a.expiresAt - b.expiresAt)) {
      if (held + 1 <= policy.burst) break;
      tat = Math.max(tat, lease.expiresAt + held * interval);
      held -= lease.count;
      time = lease.expiresAt;
    }
    return Math.max(time, tat + interval - tolerance) - now;
  }

  /** `resetMs` as if every granted admission were used at once; `othersResetMs` bounds what other holders may still spend. */
  #resets(now: number, interval: number, except?: string) {
    let othersEnd = 0;
    let othersHeld = 0;
    for (const [id, lease] of this.#leases) {
      if (id === except) continue;
      othersEnd = Math.max(othersEnd, lease.expiresAt);
      othersHeld += lease.count;
    }
    const resetMs = Math.max(0, (this.#tat ?? now) - now);
    return { resetMs, othersResetMs: othersHeld > 0 ? othersEnd - now + othersHeld * interval : 0 };
  }
}

/** The SubjectGuard's answer to one request (a subject not revoked): a lease, or for a strict subject or a `direct` request one admission. */
export function answerLease(
  ledger: LeaseLedger,
  now: number,
  policy: RatePolicy,
  request: LeaseRequest,
  strict: boolean,
): LeaseReply {
  const finished = request.finished.slice(0, MAX_RETURNS);
  const decision =
    strict || request.direct
      ? ledger.admitOne(now, policy, finished)
      : ledger.grant(now, policy, request.want, finished);
  const { resetMs, othersResetMs } = decision;
  if (!decision.allowed)
    return { verdict: "limited", policy, retryAfterMs: decision.retryAfterMs, resetMs, othersResetMs };
  return {
    verdict: "allowed",
    policy,
    lease: decision.lease,
    remaining: decision.remaining,
    resetMs,
    othersResetMs,
    strict,
  };
}
