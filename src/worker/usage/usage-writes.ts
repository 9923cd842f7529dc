/**
 * One usage batch written to D1 (CATALOG_DB, migrations/0005_usage.sql) in one transaction: the
 * batch's id, an upsert per count into its hour and its day, the error answers and the ring's trim,
 * and now and then the retention's deletes. A retried batch that had committed fails on its id and
 * is rolled back whole, so it counts nothing twice.
 */
import { DAY_MS, ERRORS_KEPT, type UsageBatch, type UsageCount } from "./usage-tally";

/** How long each resolution is kept (docs/storage.md "Usage"). */
export const HOURS_KEPT_MS = 31 * DAY_MS;
export const DAYS_KEPT_MS = 400 * DAY_MS;
/** Long past any retry of a batch (retries end within 30 s). */
const BATCH_IDS_KEPT_MS = DAY_MS;

const UPSERT_COUNT = `INSERT INTO usage_counts (period, start, account_id, subject, status, code, route, requests, bytes)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (period, account_id, subject, start, status, code, route)
  DO UPDATE SET requests = requests + excluded.requests, bytes = bytes + excluded.bytes`;
const INSERT_ERROR = `INSERT OR IGNORE INTO usage_errors (subject, at, request_id, account_id, method, route, status, code)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
/** The ring: everything of the subject older than its 100th newest error goes. */
const TRIM_ERRORS = `DELETE FROM usage_errors WHERE subject = ?1 AND (at, request_id) < (
  SELECT at, request_id FROM usage_errors WHERE subject = ?1 ORDER BY at DESC, request_id DESC LIMIT 1 OFFSET ${ERRORS_KEPT - 1})`;

export type BatchOutcome = "written" | "written before";

export async function writeUsageBatch(
  db: D1Database,
  id: string,
  batch: UsageBatch,
  options: { now: number; prune: boolean },
): Promise<BatchOutcome> {
  const statements = [
    db.prepare("INSERT INTO usage_batches (id, at) VALUES (?, ?)").bind(id, options.now),
    ...batch.counts.flatMap((count) => [
      upsert(db, "hour", count.hour, count),
      upsert(db, "day", dayOf(count.hour), count),
    ]),
    ...batch.errors.map((e) =>
      db.prepare(INSERT_ERROR).bind(e.subject, e.at, e.requestId, e.accountId, e.method, e.route, e.status, e.code),
    ),
    ...[...new Set(batch.errors.map((e) => e.subject))].map((subject) => db.prepare(TRIM_ERRORS).bind(subject)),
    ...(options.prune ? retention(db, options.now) : []),
  ];
  try {
    await db.batch(statements);
    return "written";
  } catch (error) {
    if (String((error as Error)?.message).includes("usage_batches.id")) return "written before";
    throw error;
  }
}

const dayOf = (at: number) => Math.floor(at / DAY_MS) * DAY_MS;

function upsert(db: D1Database, period: "hour" | "day", start: number, c: UsageCount): D1PreparedStatement {
  return db
    .prepare(UPSERT_COUNT)
    .bind(period, start, c.accountId, c.subject, c.status, c.code, c.route, c.requests, c.bytes);
}

function retention(db: D1Database, now: number): D1PreparedStatement[] {
  return [
    db.prepare("DELETE FROM usage_counts WHERE period = 'hour' AND start < ?").bind(now - HOURS_KEPT_MS),
    db.prepare("DELETE FROM usage_counts WHERE period = 'day' AND start < ?").bind(now - DAYS_KEPT_MS),
    db.prepare("DELETE FROM usage_batches WHERE at < ?").bind(now - BATCH_IDS_KEPT_MS),
  ];
}
