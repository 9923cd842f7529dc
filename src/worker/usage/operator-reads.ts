/**
 * Usage as the operator reads it (GET /operator/v1/usage, the operator's dashboard page,
 * `npm run operator -- usage`): the deployment's totals and series, the refusals before
 * authentication by status and code, and the top 20 accounts and keys by requests and by errors.
 * Optionally one account's.
 */
import { reportOf } from "./usage-reads";
import type { OperatorUsage } from "./usage-types";
import type { UsageWindow } from "./usage-window";

const TOP = 20;

interface Filter {
  sql: string;
  bindings: (string | number)[];
}

const filterOf = (window: UsageWindow, accountId?: string): Filter => ({
  sql: `period = ? AND start >= ? AND start < ?${accountId === undefined ? "" : " AND account_id = ?"}`,
  bindings: [window.granularity, window.start, window.end, ...(accountId === undefined ? [] : [accountId])],
});

export async function operatorUsage(db: D1Database, window: UsageWindow, accountId?: string): Promise<OperatorUsage> {
  const filter = filterOf(window, accountId);
  const [counts, accounts, keys] = await Promise.all([
    db
      .prepare(
        `SELECT account_id = '' AS refused, start, status, code, SUM(requests) AS requests, SUM(bytes) AS bytes
         FROM usage_counts WHERE ${filter.sql} GROUP BY refused, start, status, code`,
      )
      .bind(...filter.bindings)
      .all<{ refused: number; start: number; status: number; code: string; requests: number; bytes: number }>(),
    rankings(db, filter, "account_id"),
    rankings(db, filter, "account_id, subject"),
  ]);
  const authenticated = reportOf(
    counts.results.filter((row) => row.refused === 0),
    window,
  );
  const refused = reportOf(
    counts.results.filter((row) => row.refused === 1),
    window,
  ).totals;
  return {
    ...authenticated,
    unauthenticated: { requests: refused.requests, by_status: refused.by_status, by_code: refused.by_code },
    top_accounts: accounts,
    top_keys: keys,
  };
}

async function rankings(db: D1Database, filter: Filter, group: "account_id" | "account_id, subject") {
  const rank = (order: "requests" | "errors") =>
    db
      .prepare(
        `SELECT ${group}, SUM(requests) AS requests, SUM(CASE WHEN status >= 400 THEN requests ELSE 0 END) AS errors
         FROM usage_counts WHERE ${filter.sql} AND account_id != '' GROUP BY ${group}
         HAVING ${order} > 0 ORDER BY ${order} DESC, ${group} LIMIT ${TOP}`,
      )
      .bind(...filter.bindings)
      .all<{ account_id: string; subject?: string; requests: number; errors: number }>();
  const [byRequests, byErrors] = await Promise.all([rank("requests"), rank("errors")]);
  const view = (rows: { account_id: string; subject?: string; requests: number; errors: number }[]) =>
    rows.map(({ account_id, subject, requests, errors }) => ({
      account_id,
      ...(subject === undefined ? {} : { key_id: subject }),
      requests,
      errors,
    }));
  return { by_requests: view(byRequests.results), by_errors: view(byErrors.results) };
}
