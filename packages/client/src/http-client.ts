/**
 * The HTTP client of the catalog's consumers (used by `npm run catalog:pull`): sends the API key,
 * retries what is worth retrying (retry-policy.ts) within a shared retry budget (retry-budget.ts),
 * and turns a final failure into one precise error. Web-standard APIs only; time, randomness and
 * fetch are injected so that tests run the real schedule on a fake clock, without sleeping.
 */
import { DEFAULT_RETRY_POLICY, decideRetry, type AttemptOutcome, type RetryPolicy } from "./retry-policy.js";
import { DEFAULT_RETRY_BUDGET, RetryBudget, type RetryBudgetOptions } from "./retry-budget.js";

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface RetryEvent {
  url: string;
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface CatalogHttpOptions {
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  fetch?: (request: Request) => Promise<Response>;
  clock?: Clock;
  random?: () => number;
  policy?: RetryPolicy;
  budget?: RetryBudgetOptions;
  onRetry?: (event: RetryEvent) => void;
}

/** A request that failed for good: the status (if any) and the server's problem detail. */
export class RequestFailed extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status: number | null,
    readonly code: string | null,
  ) {
    super(message);
  }
}

export function createCatalogHttp(options: CatalogHttpOptions = {}) {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const budget = new RetryBudget(options.budget ?? DEFAULT_RETRY_BUDGET);

  /** GET `url`; resolves with a 2xx or 304 response, rejects with RequestFailed otherwise. */
  async function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const request = new Request(url, { headers: { ...headers, ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}) } });
      let outcome: AttemptOutcome;
      let response: Response | null = null;
      try {
        response = await send(request);
        if (response.ok || response.status === 304) {
          budget.earn();
          return response;
        }
        outcome = { status: response.status, retryAfter: response.headers.get("Retry-After") };
      } catch (error) {
        outcome = { networkError: describeNetworkError(error) };
      }
      const decision = decideRetry(outcome, attempt, clock.now(), policy, random);
      if (!decision.retry) throw await failure(url, response, decision.reason);
      if (!budget.trySpend()) throw await failure(url, response, `${decision.reason}; retry budget exhausted (the server keeps failing)`);
      await response?.body?.cancel();
      options.onRetry?.({ url, attempt, delayMs: decision.delayMs, reason: decision.reason });
      await clock.sleep(decision.delayMs);
    }
  }

  return { get };
}

/** The final error, with the problem+json `code` and `detail` when the server sent one. */
async function failure(url: string, response: Response | null, reason: string): Promise<RequestFailed> {
  if (!response) return new RequestFailed(`GET ${url} failed: ${reason}`, url, null, null);
  let code: string | null = null;
  let detail = "";
  if (response.headers.get("Content-Type")?.includes("json")) {
    const problem = (await response.json().catch(() => ({}))) as { code?: unknown; detail?: unknown };
    code = typeof problem.code === "string" ? problem.code : null;
    detail = typeof problem.detail === "string" ? `: ${problem.detail}` : "";
  } else {
    await response.body?.cancel();
  }
  return new RequestFailed(`GET ${url} → ${response.status}${code ? ` ${code}` : ""}${detail} (${reason})`, url, response.status, code);
}

/** fetch's TypeError says little ("fetch failed"); its cause says what happened (e.g. ECONNREFUSED). */
function describeNetworkError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const detail = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : "";
  return detail ? `${message}: ${detail}` : message;
}
