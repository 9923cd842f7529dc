/**
 * The isolate's side of admission leases (docs/rate-limits.md "Admission leases"): per subject, the leases its
 * SubjectGuard granted, spent in memory with no RPC while they last.
 * - Lease sizes follow this isolate's recent rate for the subject (DemandMeter) over a horizon of
 *   four round trips, 250–500 ms, plus the requests waiting; the SubjectGuard caps them at a quarter of
 *   the burst. Below two admissions per horizon a lease is not worth holding (it would keep
 *   admissions from other isolates for nothing).
 * - Ahead of need (when what is left would not outlast two round trips at the recent rate, or a
 *   quarter of the last lease), a renewal runs in the background (`waitUntil`): a steady client
 *   does not wait for it. One lease request at a time per subject.
 * - A request only ever awaits its own RPC: workerd cancels a request that waits on another
 *   request's I/O as hung. One that finds no admission left asks for a lease if one is worth it
 *   and none is on its way, and takes the first admission of it; otherwise its RPC admits it in the
 *   SubjectGuard directly, with exact figures — so a lease never limits throughput either.
 * - A lease admits until `sent + ttl − margin` on this isolate's clock: it was sent before the
 *   SubjectGuard granted it, so it ends here before it ends there, whatever the clocks say. One that
 *   arrives after that is handed back unused.
 * - A spent lease is handed back with the next RPC, so the SubjectGuard stops counting it as held.
 * - A refusal is remembered until its Retry-After, a revocation for good: neither costs an RPC
 *   again. A strict subject (the reply says so) gets no lease: each of its requests asks.
 * Memory: at most MAX_SUBJECTS subjects, the least recently renewed forgotten first.
 */
import { directAdmission, leaseAdmission, refusal, viewOf, type Admission, type LimitView } from "./admission";
import { DemandMeter } from "./demand";
import type { RatePolicy } from "./gcra";
import {
  LEASE_MARGIN_MS,
  MAX_RETURNS,
  maxLeaseSize,
  type GrantedLease,
  type LeaseReply,
  type LeaseRequest,
  type LeaseReturn,
} from "./lease-protocol";
import { retryTransient } from "../../common/transient";

export interface LeaseSource {
  acquire(request: LeaseRequest): Promise<LeaseReply>;
}

/** One request's means: its subject's SubjectGuard, its mode's policy, and how to finish work after the response. */
export interface AdmissionContext {
  source: () => LeaseSource;
  policy: RatePolicy;
  waitUntil: (work: Promise<unknown>) => void;
}

const MAX_SUBJECTS = 10_000;
const FIRST_RTT_MS = 10;
const HORIZON_MS = { min: 250, max: 500 };

interface HeldLease {
  id: string;
  count: number;
  left: number;
  until: number;
}
class Subject {
  constructor(readonly name: string) {}
  leases: HeldLease[] = [];
  finished: LeaseReturn[] = [];
  /** The lease request on its way, if any: one at a time. */
  flight: Promise<LeaseReply> | undefined;
  demand = new DemandMeter();
  rttMs: number | undefined;
  view: LimitView = { policy: undefined, unleased: 0, spentTat: 0, resetAt: 0, othersResetAt: 0, limitedUntil: 0 };
  revoked = false;
  strict = false;
}

export class LeaseBook {
  readonly #subjects = new Map<string, Subject>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? (() => Date.now());
  }

  admit(name: string, ctx: AdmissionContext): Promise<Admission> {
    const subject = this.#subject(name);
    const now = this.#now();
    if (subject.revoked) return Promise.resolve(refusal("revoked", subject.view, ctx.policy, now));
    subject.demand.record(now);
    if (subject.strict) return this.#direct(subject, ctx);
    const taken = this.#take(subject, now, ctx.policy);
    if (taken) {
      this.#renewAhead(subject, now, ctx);
      return Promise.resolve(taken);
    }
    if (now < subject.view.limitedUntil) return Promise.resolve(refusal("limited", subject.view, ctx.policy, now));
    const flight = this.#fly(subject, ctx, 1);
    return flight ? this.#leased(subject, ctx, flight) : this.#direct(subject, ctx);
  }

  /** The first admission of the lease this request asked for; the SubjectGuard's own if it brought none usable. */
  async #leased(subject: Subject, ctx: AdmissionContext, flight: Promise<LeaseReply>): Promise<Admission> {
    const reply = await flight;
    const now = this.#now();
    if (reply.verdict !== "allowed") return refusal(reply.verdict, subject.view, ctx.policy, now);
    if (reply.lease === null) return directAdmission(reply);
    return this.#take(subject, now, ctx.policy) ?? this.#direct(subject, ctx);
  }

  /** One admission from the earliest-ending lease, if any lease still admits. */
  #take(subject: Subject, now: number, fallback: RatePolicy): Admission | undefined {
    subject.leases = subject.leases.filter((lease) => lease.until > now);
    const lease = subject.leases[0];
    if (!lease) return undefined;
    if (--lease.left === 0) {
      subject.leases.shift();
      subject.finished.push({ id: lease.id, unused: 0 });
    }
    const view = subject.view;
    view.spentTat = Math.max(view.spentTat, now) + 1000 / (view.policy ?? fallback).rate;
    const left = subject.leases.reduce((sum, held) => sum + held.left, 0);
    return leaseAdmission(view, fallback, now, left, subject.leases.at(-1)?.until ?? now);
  }

  #renewAhead(subject: Subject, now: number, ctx: AdmissionContext): void {
    if (subject.flight) return;
    const lead = 2 * (subject.rttMs ?? FIRST_RTT_MS) + LEASE_MARGIN_MS;
    const left = subject.leases.reduce((sum, lease) => sum + lease.left, 0);
    const last = subject.leases.at(-1);
    if (last && left > Math.max(subject.demand.rate(now) * lead, last.count / 4) && last.until - now > lead) return;
    void this.#fly(subject, ctx, 0)?.catch(() => {});
  }

  /** Asks for a lease if one is worth it and none is on its way: for `waiting` requests now, and the recent rate's over the next horizon. */
  #fly(subject: Subject, ctx: AdmissionContext, waiting: number): Promise<LeaseReply> | undefined {
    const want = waiting + wanted(subject, this.#now());
    if (subject.flight || !worthALease(subject, want, ctx.policy)) return undefined;
    const flight = this.#ask(subject, ctx, want, false).finally(() => {
      subject.flight = undefined;
    });
    subject.flight = flight;
    ctx.waitUntil(flight.catch(() => {}));
    return flight;
  }

  async #ask(subject: Subject, ctx: AdmissionContext, want: number, direct: boolean): Promise<LeaseReply> {
    const sentAt = this.#now();
    const finished = subject.finished.splice(0, MAX_RETURNS);
    // A fresh stub per try: one whose object was reset stays broken (transient.ts retries a reset).
    const reply = await retryTransient(() => ctx.source().acquire({ want, finished, policy: ctx.policy, direct }));
    const receivedAt = this.#now();
    subject.rttMs =
      subject.rttMs === undefined ? receivedAt - sentAt : 0.75 * subject.rttMs + 0.25 * (receivedAt - sentAt);
    subject.view = viewOf(reply, sentAt, receivedAt, subject.view);
    if (reply.verdict === "revoked") {
      subject.revoked = true;
      subject.leases = [];
    } else if (reply.verdict === "allowed") {
      subject.strict = reply.strict;
      if (reply.lease) this.#hold(subject, reply.lease, sentAt + reply.lease.ttlMs - LEASE_MARGIN_MS, receivedAt);
    }
    this.#touch(subject);
    return reply;
  }

  /** A lease that ends before it arrives is handed back unused. */
  #hold(subject: Subject, lease: GrantedLease, until: number, now: number): void {
    if (until > now) subject.leases.push({ id: lease.id, count: lease.count, left: lease.count, until });
    else subject.finished.push({ id: lease.id, unused: lease.count });
  }

  /**
   * One request admitted (or not) by the SubjectGuard itself: a strict subject's, or one that found no
   * admission here. Refused, it still takes one this isolate was granted meanwhile (a lease that
   * arrived while it asked), so that no granted admission goes unused while requests are refused.
   */
  async #direct(subject: Subject, ctx: AdmissionContext): Promise<Admission> {
    const reply = await this.#ask(subject, ctx, 1, true);
    const now = this.#now();
    if (reply.verdict === "allowed") return directAdmission(reply);
    return (
      (reply.verdict === "limited" && this.#take(subject, now, ctx.policy)) ||
      refusal(reply.verdict, subject.view, ctx.policy, now)
    );
  }

  #subject(name: string): Subject {
    const known = this.#subjects.get(name);
    if (known) return known;
    const oldest = this.#subjects.keys().next();
    if (this.#subjects.size >= MAX_SUBJECTS && !oldest.done) this.#subjects.delete(oldest.value);
    const created = new Subject(name);
    this.#subjects.set(name, created);
    return created;
  }

  /** Most recently renewed last: a Map iterates in insertion order. */
  #touch(subject: Subject): void {
    if (this.#subjects.get(subject.name) !== subject) return;
    this.#subjects.delete(subject.name);
    this.#subjects.set(subject.name, subject);
  }
}

const horizon = (subject: Subject) =>
  Math.min(HORIZON_MS.max, Math.max(HORIZON_MS.min, 4 * (subject.rttMs ?? FIRST_RTT_MS)));
/** Admissions this isolate expects to need for the subject over the next horizon (whole ones only). */
const wanted = (subject: Subject, now: number) => Math.floor(subject.demand.rate(now) * horizon(subject));
const worthALease = (subject: Subject, want: number, fallback: RatePolicy) =>
  want >= 2 && maxLeaseSize(subject.view.policy ?? fallback) >= 2;
