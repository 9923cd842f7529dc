/**
 * Usage as a key holder reads it (GET /v1/usage, /v1/usage/errors; the dashboard's Usage page):
 * one account's counts in a window, summed per point, status and code, and its recent errors,
 * newest first. Only the account's own rows are ever read (`account_id` in every query).
 */
import type { UsagePoint, UsageReport } from "./usage-types";
import type { UsageWindow } from "./usage-window";

export interface UsageScope {
  accountId: string;
  /** A key id or grant id; undefined for the whole account. */
  subject?: string;
}

export interface CountRow {
  start: number;
  status: number;
  code: string;
  requests: number;
  bytes: number;
}

const subjectFilter = (scope: UsageScope) => (scope.subject === undefined ? "" : " AND subject = ?");
const subjectBinding = (scope: UsageScope) => (scope.subject === undefined ? [] : [scope.subject]);

export async function usageReport(db: D1Database, scope: UsageScope, window: UsageWindow): Promise<UsageReport> {
  const { results } = await db
    .prepare(
      `SELECT start, status, code, SUM(requests) AS requests, SUM(bytes) AS bytes FROM usage_counts
       WHERE period = ? AND account_id = ?${subjectFilter(scope)} AND start >= ? AND start < ?
       GROUP BY start, status, code`,
    )
    .bind(window.granularity, scope.accountId, ...subjectBinding(scope), window.start, window.end)
    .all<CountRow>();
  return reportOf(results, window);
}

/** Totals and one point per hour or day of the window, zeros included. */
export function reportOf(rows: CountRow[], window: UsageWindow): UsageReport {
  const totals: UsageReport["totals"] = { requests: 0, by_status: {}, by_code: {}, bytes: 0 };
  const points = new Map<number, UsagePoint>();
  for (let at = window.start; at < window.end; at += window.step)
    points.set(at, { start: new Date(at).toISOString(), requests: 0, errors: 0, rate_limited: 0 });
  for (const row of rows) {
    totals.requests += row.requests;
    totals.bytes += row.bytes;
    totals.by_status[row.status] = (totals.by_status[row.status] ?? 0) + row.requests;
    if (row.code !== "") totals.by_code[row.code] = (totals.by_code[row.code] ?? 0) + row.requests;
    const point = points.get(row.start);
    if (!point) continue;
    point.requests += row.requests;
    if (row.status >= 400) point.errors += row.requests;
    if (row.status === 429) point.rate_limited += row.requests;
  }
  return { totals, series: [...points.values()] };
}

export interface RecentError {
  request_id: string;
  at: string;
  method: string;
  route: string | null;
  status: number;
  code: string | null;
}

/** Where a page of recent errors starts: after this error (newest first). */
export interface ErrorPlace {
  at: number;
  request_id: string;
}

interface ErrorRow {
  at: number;
  request_id: string;
  method: string;
  route: string;
  status: number;
  code: string;
}

/** Up to `limit` errors, newest first, after `after`; and whether more follow. */
export async function recentErrors(
  db: D1Database,
  scope: UsageScope,
  page: { limit: number; after?: ErrorPlace },
): Promise<{ errors: RecentError[]; last: ErrorPlace | undefined; more: boolean }> {
  const after = page.after ? " AND (at, request_id) < (?, ?)" : "";
  const { results } = await db
    .prepare(
      `SELECT at, request_id, method, route, status, code FROM usage_errors
       WHERE account_id = ?${subjectFilter(scope)}${after} ORDER BY at DESC, request_id DESC LIMIT ?`,
    )
    .bind(
      scope.accountId,
      ...subjectBinding(scope),
      ...(page.after ? [page.after.at, page.after.request_id] : []),
      page.limit + 1,
    )
    .all<ErrorRow>();
  const rows = results.slice(0, page.limit);
  const lastRow = rows.at(-1);
  return {
    errors: rows.map((row) => ({
      request_id: row.request_id,
      at: new Date(row.at).toISOString(),
      method: row.method,
      route: row.route === "" ? null : row.route,
      status: row.status,
      code: row.code === "" ? null : row.code,
    })),
    last: lastRow ? { at: lastRow.at, request_id: lastRow.request_id } : undefined,
    more: results.length > page.limit,
  };
}
