/**
 * Watches and their events in D1 CATALOG_DB (migrations/0006_watches.sql, docs/storage.md
 * "Watches"): the worker creates, lists and deletes watches and reads their events; the publish
 * (src/node/catalog/watch-record.ts) writes the events. Every read names the account, so another
 * account's watch is not found; production and the sandbox have their own databases.
 */
import { randomBase62 } from "../../common/auth/checksum";
import type { QueryFilter } from "../../common/catalog/query-filter";
import { parseStoredJson } from "../http/stored-json";
import { MAX_WATCHES_PER_ACCOUNT, ProfileRef, type WatchView } from "./schemas";

interface WatchRow {
  id: string;
  account_id: string;
  name: string;
  query: string | null;
  profiles: string | null;
  created_at: string;
}

export interface NewWatch {
  name: string;
  query?: { canonical: string; filter: QueryFilter };
  profiles?: ProfileRef[];
}

const ProfileRefs = ProfileRef.array();

export function viewOfWatch(row: WatchRow): WatchView {
  return {
    object: "watch",
    id: row.id,
    name: row.name,
    query: row.query,
    profiles: row.profiles === null ? null : parseStoredJson(row.profiles, ProfileRefs, "watch profiles"),
    created_at: row.created_at,
  };
}

/**
 * Inserts the watch unless the account has MAX_WATCHES_PER_ACCOUNT already: the count and the
 * insert are one statement, which D1 runs alone, so concurrent creates cannot pass the limit.
 */
export async function insertWatch(db: D1Database, accountId: string, watch: NewWatch): Promise<WatchView | null> {
  const row: WatchRow = {
    id: `wat_${randomBase62(20)}`,
    account_id: accountId,
    name: watch.name,
    query: watch.query?.canonical ?? null,
    profiles: watch.profiles ? JSON.stringify(watch.profiles) : null,
    created_at: new Date().toISOString(),
  };
  const result = await db
    .prepare(
      "INSERT INTO watches (id, account_id, name, query, filter, profiles, created_at) " +
        "SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE (SELECT count(*) FROM watches WHERE account_id = ?2) < ?8",
    )
    .bind(
      row.id,
      accountId,
      row.name,
      row.query,
      watch.query ? JSON.stringify(watch.query.filter) : null,
      row.profiles,
      row.created_at,
      MAX_WATCHES_PER_ACCOUNT,
    )
    .run();
  return result.meta.changes === 1 ? viewOfWatch(row) : null;
}

const WATCH_COLUMNS = "id, account_id, name, query, profiles, created_at";

/** The account's watches oldest first, after `after` ([created_at, id] of the last one shown). */
export async function watchesOf(
  db: D1Database,
  accountId: string,
  limit: number,
  after?: [string, string],
): Promise<WatchRow[]> {
  const [at, id] = after ?? ["", ""];
  const { results } = await db
    .prepare(
      `SELECT ${WATCH_COLUMNS} FROM watches WHERE account_id = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`,
    )
    .bind(accountId, at, id, limit)
    .all<WatchRow>();
  return results;
}

export async function watchOf(db: D1Database, accountId: string, id: string): Promise<WatchRow | null> {
  return db
    .prepare(`SELECT ${WATCH_COLUMNS} FROM watches WHERE id = ? AND account_id = ?`)
    .bind(id, accountId)
    .first<WatchRow>();
}

/**
 * Deletes the watch and its events, in one transaction: from now on nothing more is recorded for
 * it. Its events' lists go too, unless an event of another watch with the same predicate shares them.
 */
export async function deleteWatch(db: D1Database, accountId: string, id: string): Promise<WatchRow | null> {
  const row = await watchOf(db, accountId, id);
  if (!row) return null;
  await db.batch([
    db
      .prepare(
        "DELETE FROM watch_event_profiles WHERE lists_id IN (SELECT lists_id FROM watch_events WHERE watch_id = ?1) " +
          "AND NOT EXISTS (SELECT 1 FROM watch_events o WHERE o.lists_id = watch_event_profiles.lists_id AND o.watch_id <> ?1)",
      )
      .bind(id),
    db.prepare("DELETE FROM watch_events WHERE watch_id = ?").bind(id),
    db.prepare("DELETE FROM watches WHERE id = ? AND account_id = ?").bind(id, accountId),
  ]);
  return row;
}
