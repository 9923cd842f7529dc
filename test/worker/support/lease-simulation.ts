/**
 * Tools for the lease tests: seeded randomness, the check that a sequence of admissions is one the
 * policy allows, and a simulated SubjectGuard that answers with the real ledger (src/worker/limits/lease-ledger.ts)
 * after an injected round trip, so isolate-side tests run against the real protocol with fake time.
 */
import { gcraDecide, type RatePolicy } from "../../../src/worker/limits/gcra";
import { answerLease, LeaseLedger } from "../../../src/worker/limits/lease-ledger";
import type { LeaseReply, LeaseRequest } from "../../../src/worker/limits/lease-protocol";
import type { LeaseSource } from "../../../src/worker/limits/lease-book";

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

/** What GCRA would still admit at `at`, after every admission made at or before it. */
export function remainingAt(times: readonly number[], policy: RatePolicy, at: number): number {
  let tat: number | undefined;
  for (const time of [...times].filter((t) => t <= at).sort((a, b) => a - b)) tat = gcraDecide(tat, time, policy).tat;
  const interval = 1000 / policy.rate;
  return Math.floor((at + interval * policy.burst - Math.max(tat ?? at, at)) / interval + 1e-6);
}

/** No timer for 0 ms: fake timers run a 0 ms timer set during a tick only 1 ms later. */
const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/** A SubjectGuard stand-in: the real ledger and reply, `rttMs` away (half each way), on the (fake) clock. */
export class SimulatedGuard implements LeaseSource {
  readonly ledger = new LeaseLedger();
  /** When the guard itself admitted a request (direct admissions). */
  readonly directAdmissions: number[] = [];
  readonly requests: LeaseRequest[] = [];
  revoked = false;
  strict = false;

  constructor(
    readonly policy: RatePolicy,
    readonly rttMs = 0,
  ) {}

  async acquire(request: LeaseRequest): Promise<LeaseReply> {
    this.requests.push(structuredClone(request));
    await sleep(this.rttMs / 2);
    const now = Date.now();
    const reply: LeaseReply = this.revoked
      ? { verdict: "revoked", policy: this.policy, resetMs: 0, othersResetMs: 0 }
      : answerLease(this.ledger, now, this.policy, request, this.strict);
    if (reply.verdict === "allowed" && reply.lease === null) this.directAdmissions.push(now);
    await sleep(this.rttMs / 2);
    return structuredClone(reply);
  }
}
