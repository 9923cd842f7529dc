/**
 * What one isolate has counted and not yet written (docs/usage.md "How counting works"): per key or
 * grant, hour, status, problem code and route template, the requests and response bytes; and the
 * error answers, for the recent-errors ring. Pure memory: usage-meter.ts decides when it is written.
 */

/** One answered request, as the usage counter sees it. */
export interface UsageEntry {
  /** The key id or OAuth grant id; '' for a refusal before authentication (counted per deployment). */
  subject: string;
  /** '' for a refusal before authentication. */
  accountId: string;
  at: number;
  status: number;
  /** The problem's `code`, '' when the answer was no problem. */
  code: string;
  /** The route template, `/v1/profiles/{product}/{funnel}`; '' when no route matched. */
  route: string;
  bytes: number;
  requestId: string;
  method: string;
}

/** The counts of one (subject, hour, status, code, route). */
export interface UsageCount {
  subject: string;
  accountId: string;
  hour: number;
  status: number;
  code: string;
  route: string;
  requests: number;
  bytes: number;
}

export type UsageError = Pick<
  UsageEntry,
  "subject" | "accountId" | "at" | "requestId" | "method" | "route" | "status" | "code"
>;

/** What one write carries: at most MAX_COUNTS counts and MAX_ERRORS errors. */
export interface UsageBatch {
  counts: UsageCount[];
  errors: UsageError[];
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** The ring keeps this many error answers per key (and a batch never carries more for one). */
export const ERRORS_KEPT = 100;
/** Bounds one batch's statements (two per count, one per error) well under D1's per-invocation limit. */
const MAX_COUNTS = 200;
const MAX_ERRORS = 200;

export const hourOf = (at: number) => Math.floor(at / HOUR_MS) * HOUR_MS;

export class UsageTally {
  #counts = new Map<string, UsageCount>();
  #errors: UsageError[] = [];

  get empty(): boolean {
    return this.#counts.size === 0 && this.#errors.length === 0;
  }

  add(entry: UsageEntry): void {
    const { subject, accountId, status, code, route, bytes } = entry;
    this.#merge({ subject, accountId, hour: hourOf(entry.at), status, code, route, requests: 1, bytes });
    if (entry.status >= 400 && entry.subject !== "") {
      const { at, requestId, method } = entry;
      this.#errors.push({ subject, accountId, at, requestId, method, route, status, code });
    }
  }

  /** Takes out one batch's worth (everything, when it fits), oldest counts first. */
  take(): UsageBatch {
    const counts: UsageCount[] = [];
    for (const [key, count] of this.#counts) {
      if (counts.length === MAX_COUNTS) break;
      counts.push(count);
      this.#counts.delete(key);
    }
    return { counts, errors: this.#errors.splice(0, MAX_ERRORS) };
  }

  /** A batch that could not be written goes back, added to whatever was counted since. */
  putBack(batch: UsageBatch): void {
    for (const count of batch.counts) this.#merge(count);
    this.#errors.unshift(...batch.errors);
  }

  #merge(count: UsageCount): void {
    const key = JSON.stringify([count.subject, count.hour, count.status, count.code, count.route]);
    const known = this.#counts.get(key);
    if (known) {
      known.requests += count.requests;
      known.bytes += count.bytes;
    } else this.#counts.set(key, { ...count });
  }
}
