/**
 * Usage of the calling credential's account (`GET /v1/usage`, scope read:usage) and its recent error
 * answers (`GET /v1/usage/errors`, every page followed). Web APIs only.
 */
import { CatalogVerificationError } from "./errors.js";
import type { CatalogHttp } from "./http-client.js";
import type { CallOptions } from "./types.js";

export interface UsagePoint {
  start: string;
  requests: number;
  /** Answers with status ≥ 400. */
  errors: number;
  /** 429 answers. */
  rate_limited: number;
}

export interface Usage {
  object: "usage";
  from: string;
  to: string;
  granularity: "hour" | "day";
  /** The key reported on; null for the whole account. */
  key_id: string | null;
  totals: { requests: number; by_status: Record<string, number>; by_code: Record<string, number>; bytes: number };
  /** One point per hour or day of the range, zeros included. */
  series: UsagePoint[];
}

export interface UsageError {
  request_id: string;
  at: string;
  method: string;
  route: string | null;
  status: number;
  code: string | null;
}

export type UsageOptions = CallOptions & {
  /** Default: 24 hours (hour) or 30 days (day) before `to`. */
  from?: string | Date;
  /** Default: the end of the current hour or day. */
  to?: string | Date;
  granularity?: "hour" | "day";
  /** One key of the account (`key_live_…`); without it, the whole account. */
  key?: string;
};

export type UsageErrorsOptions = CallOptions & {
  key?: string;
  /** Errors per request, 1–100 (default 100). */
  pageSize?: number;
};

const instantText = (value: string | Date) => (value instanceof Date ? value.toISOString() : value);

export async function usage(http: CatalogHttp, baseUrl: string, options: UsageOptions = {}): Promise<Usage> {
  const query = new URLSearchParams();
  if (options.from !== undefined) query.set("from", instantText(options.from));
  if (options.to !== undefined) query.set("to", instantText(options.to));
  if (options.granularity) query.set("granularity", options.granularity);
  if (options.key) query.set("key", options.key);
  const url = new URL(`/v1/usage?${query}`, baseUrl).href;
  const answer = (await (await http.get(url, { signal: options.signal })).json()) as Usage;
  if (answer.object !== "usage" || !Array.isArray(answer.series))
    throw new CatalogVerificationError(`${url}: not a usage report`);
  return answer;
}

/** Every recent error answer, newest first, following `next`. */
export async function* usageErrors(
  http: CatalogHttp,
  baseUrl: string,
  options: UsageErrorsOptions = {},
): AsyncGenerator<UsageError, void, undefined> {
  const query = new URLSearchParams({ limit: String(options.pageSize ?? 100) });
  if (options.key) query.set("key", options.key);
  let path: string | null = `/v1/usage/errors?${query}`;
  while (path) {
    const url = new URL(path, baseUrl).href;
    const page = (await (await http.get(url, { signal: options.signal })).json()) as { data?: unknown; next?: unknown };
    if (!Array.isArray(page.data)) throw new CatalogVerificationError(`${url}: not a page of errors`);
    yield* page.data as UsageError[];
    path = typeof page.next === "string" ? page.next : null;
  }
}
