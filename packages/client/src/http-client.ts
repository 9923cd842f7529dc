/**
 * The HTTP client under the catalog client: sends the credential, retries what is worth retrying
 * (retry-policy.ts) within a shared retry budget (retry-budget.ts), and turns a final failure into
 * one CatalogApiError. Web-standard APIs only; time, randomness and fetch are injected so that
 * tests run the real schedule on a fake clock, without sleeping.
 */
import { CatalogApiError } from "./errors.js";
import { DEFAULT_RETRY_BUDGET, RetryBudget, type RetryBudgetOptions } from "./retry-budget.js";
import {
  DEFAULT_RETRY_POLICY,
  decideRetry,
  retryAfterMs,
  type AttemptOutcome,
  type RetryPolicy,
} from "./retry-policy.js";

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", wake);
        resolve();
      }, ms);
      signal?.addEventListener("abort", wake, { once: true });
    }),
};

export interface RetryEvent {
  url: string;
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface CatalogHttpOptions {
  /** An API key or an OAuth access token, sent as `Authorization: Bearer <key>`. */
  key?: string;
  fetch?: (request: Request) => Promise<Response>;
  clock?: Clock;
  random?: () => number;
  policy?: RetryPolicy;
  budget?: RetryBudgetOptions;
  onRetry?: (event: RetryEvent) => void;
}

export interface GetOptions {
  headers?: Record<string, string>;
  /** Stops the request, its retries and its backoff; the call rejects with `signal.reason`. */
  signal?: AbortSignal;
}

export type CatalogHttp = ReturnType<typeof createCatalogHttp>;

export function createCatalogHttp(options: CatalogHttpOptions = {}) {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const budget = new RetryBudget(options.budget ?? DEFAULT_RETRY_BUDGET);
  const authorization: Record<string, string> = options.key ? { Authorization: `Bearer ${options.key}` } : {};

  /** GET `url`; resolves with a 2xx or 304 response, rejects with CatalogApiError otherwise. */
  async function get(url: string, { headers = {}, signal }: GetOptions = {}): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      const request = new Request(url, { headers: { ...headers, ...authorization }, signal });
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
        // A cancelled fetch rejects like a network failure: it must end the call, not be retried.
        signal?.throwIfAborted();
        outcome = { networkError: describeNetworkError(error) };
      }
      const now = clock.now();
      const decision = decideRetry(outcome, attempt, now, policy, random);
      if (!decision.retry) throw await failure(url, response, decision.reason, now);
      if (!budget.trySpend())
        throw await failure(
          url,
          response,
          `${decision.reason}; retry budget exhausted (the server keeps failing)`,
          now,
        );
      await response?.body?.cancel();
      options.onRetry?.({ url, attempt, delayMs: decision.delayMs, reason: decision.reason });
      await clock.sleep(decision.delayMs, signal);
    }
  }

  /**
   * One request that changes state (POST, DELETE) with an optional JSON body: sent once, never
   * retried (a create retried could create twice); rejects with CatalogApiError unless 2xx.
   */
  async function change(
    method: "POST" | "DELETE",
    url: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<Response> {
    signal?.throwIfAborted();
    const headers: Record<string, string> = { ...authorization };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const init = { method, headers, signal, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    let response: Response;
    try {
      response = await send(new Request(url, init));
    } catch (error) {
      signal?.throwIfAborted();
      throw new CatalogApiError(
        `${method} ${url} failed: ${describeNetworkError(error)}`,
        url,
        null,
        null,
        null,
        null,
        null,
      );
    }
    if (response.ok) return response;
    throw await failure(url, response, "not retried: it changes state", clock.now(), method);
  }

  return { get, change };
}

/** The final error, with the problem+json fields when the server sent them. */
async function failure(
  url: string,
  response: Response | null,
  reason: string,
  nowMs: number,
  method = "GET",
): Promise<CatalogApiError> {
  if (!response) return new CatalogApiError(`${method} ${url} failed: ${reason}`, url, null, null, null, null, null);
  let problem: { code?: unknown; detail?: unknown; request_id?: unknown } = {};
  if (response.headers.get("Content-Type")?.includes("json")) problem = (await response.json().catch(() => ({}))) ?? {};
  else await response.body?.cancel();
  const code = typeof problem.code === "string" ? problem.code : null;
  const detail = typeof problem.detail === "string" ? problem.detail : null;
  const requestId =
    response.headers.get("Request-Id") ?? (typeof problem.request_id === "string" ? problem.request_id : null);
  const retryAfter = response.headers.get("Retry-After");
  const waitMs = retryAfter === null || ![429, 503].includes(response.status) ? null : retryAfterMs(retryAfter, nowMs);
  return new CatalogApiError(
    `${method} ${url} → ${response.status}${code ? ` ${code}` : ""}${detail ? `: ${detail}` : ""} (${reason})`,
    url,
    response.status,
    code,
    detail,
    requestId,
    waitMs === null ? null : Math.ceil(waitMs / 1000),
  );
}

/** fetch's TypeError says little ("fetch failed"); its cause says what happened (e.g. ECONNREFUSED). */
function describeNetworkError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const detail = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : "";
  return detail ? `${message}: ${detail}` : message;
}
