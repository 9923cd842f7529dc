/**
 * The profile history in D1 (migrations/0004, docs/history.md), written by publish and rollback
 * after `current` moves: for each event of KV `history` not yet in D1, oldest first, one row per
 * profile whose bytes differ from the release current before, from the changes list stored for the
 * pair (changes-store.ts). The event's line goes in last, and the reads show only rows whose line
 * exists, so an interrupted write shows nothing; rows are INSERT OR IGNORE, so the next publish,
 * rollback or a retry finishes it. The history is never pruned.
 */
import {
  ensureChanges,
  readChangesPage,
  ReleaseWithoutIndex,
  type ChangesBucket,
} from "../../common/catalog/changes-store";
import { noChanges, type ChangeCounts } from "../../common/catalog/history-fields";
import { hexOf, type Manifest } from "../../common/catalog/manifest";
import type { ReleaseChange } from "../../common/catalog/release-changes";
import { readHistory, type HistoryEntry } from "../../common/catalog/release-history";
import { readManifest, type ManifestKv } from "../../common/catalog/store";
import { changeRows, RATED_COLUMNS, type FieldsById } from "./history-rows";
import type { QueryDb } from "./query-load";

export interface HistoryStorage {
  bucket: ChangesBucket;
  kv: ManifestKv;
  db: QueryDb;
}

/** Changes read and written per D1 batch: ~300 bytes a row, well under D1's 1 MB statement. */
const CHANGES_PER_BATCH = 1_000;

const INSERT_ROWS =
  `INSERT OR IGNORE INTO history_profiles (product_key, funnel_key, event_seq, id, change, sha256, previous_sha256, ${RATED_COLUMNS.join(", ")}, fields_changed) ` +
  `SELECT ${Array.from({ length: 8 + RATED_COLUMNS.length }, (_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?)`;
const INSERT_EVENT =
  "INSERT OR IGNORE INTO history_events (seq, release, previous_release, event, at, summary) VALUES (?, ?, ?, ?, ?, ?)";
/** Every profile of a loaded release, as `added` at one event (the first release, or one before history). */
const INSERT_ALL_ADDED =
  `INSERT OR IGNORE INTO history_profiles (product_key, funnel_key, event_seq, id, change, sha256, previous_sha256, ${RATED_COLUMNS.join(", ")}, fields_changed) ` +
  `SELECT product_key, funnel_key, ?, id, 'added', sha256, NULL, ${RATED_COLUMNS.join(", ")}, '[]' FROM query_profiles WHERE release = ?`;
const FIELDS_OF_IDS =
  `SELECT json_group_object(id, json_array(${RATED_COLUMNS.join(", ")})) AS fields FROM query_profiles ` +
  "WHERE release = ? AND id IN (SELECT value FROM json_each(?))";
/** The last row each (product, funnel, id) had before event `?1`: its fields, when a release's rows are gone. */
const LAST_FIELDS =
  `SELECT json_group_object(h.id, json_array(${RATED_COLUMNS.map((c) => `h.${c}`).join(", ")})) AS fields ` +
  "FROM json_each(?2) k JOIN history_profiles h ON h.product_key = json_extract(k.value, '$[0]') " +
  "AND h.funnel_key = json_extract(k.value, '$[1]') AND h.id = json_extract(k.value, '$[2]') " +
  "AND h.event_seq = (SELECT max(x.event_seq) FROM history_profiles x WHERE x.product_key = h.product_key " +
  "AND x.funnel_key = h.funnel_key AND x.id = h.id AND x.event_seq < ?1)";

/**
 * Brings the D1 history up to KV `history`. A deployment whose history starts now (no event in D1)
 * starts it with the release current before its newest event: its profiles, `added`, at its
 * `published_at`; older events are not replayed.
 */
export async function recordProfileHistory(storage: HistoryStorage): Promise<void> {
  const entries = (await readHistory(storage.kv)).entries;
  const last = await storage.db
    .prepare("SELECT seq, release FROM history_events ORDER BY seq DESC LIMIT 1")
    .first<{ seq: number; release: string }>();
  let before = last ? `sha256:${last.release}` : null;
  let pending = entries.filter((entry) => !last || entry.sequence > last.seq).reverse();
  if (!last) {
    const newest = entries[0];
    if (!newest) return;
    pending = [newest];
    if (newest.previous_release_id) await startHistory(storage, newest.previous_release_id, newest.sequence - 1);
    before = newest.previous_release_id;
  }
  for (const entry of pending) {
    await recordEvent(storage, entry, entry.previous_release_id ?? before);
    before = entry.release_id;
  }
}

/** The release made current before history existed: every profile `added` at its `published_at`. */
async function startHistory(storage: HistoryStorage, releaseId: string, seq: number): Promise<void> {
  const manifest = await readManifest(storage.kv, hexOf(releaseId));
  const at = manifest?.published_at ?? new Date(0).toISOString();
  await storage.db.batch([
    storage.db.prepare(INSERT_ALL_ADDED).bind(seq, hexOf(releaseId)),
    eventLine(storage.db, { sequence: seq, event: "publish", release_id: releaseId, at }, null, null),
  ]);
}

/**
 * One event: its rows (against `previousId`, the release current before it), then its line, with
 * the event's summary when its rows were written from the pair's changes (the summary counts
 * exactly those rows; otherwise null, and a comparison counts from the rows).
 */
async function recordEvent(storage: HistoryStorage, entry: HistoryEntry, previousId: string | null): Promise<void> {
  const { db } = storage;
  if (previousId === null) {
    await db.batch([
      db.prepare(INSERT_ALL_ADDED).bind(entry.sequence, hexOf(entry.release_id)),
      eventLine(db, entry, previousId, null),
    ]);
    return;
  }
  let summary: ChangeCounts | null = null;
  if (previousId !== entry.release_id) {
    const newer = await readManifest(storage.kv, hexOf(entry.release_id));
    const older = await readManifest(storage.kv, hexOf(previousId));
    if (newer && older && (await changesStored(storage.bucket, newer, older)))
      summary = await recordChanges(storage, entry.sequence, newer, older);
  }
  await db.batch([eventLine(db, entry, previousId, summary)]);
}

/** The pair's changes list (stored by publish before the flip; computed here otherwise); false without indexes. */
async function changesStored(bucket: ChangesBucket, newer: Manifest, older: Manifest): Promise<boolean> {
  try {
    await ensureChanges(bucket, newer, older);
    return true;
  } catch (error) {
    if (error instanceof ReleaseWithoutIndex) return false;
    throw error;
  }
}

/** Writes the event's rows, page by page, and returns what they count (its summary). */
async function recordChanges(storage: HistoryStorage, seq: number, newer: Manifest, older: Manifest) {
  const summary = noChanges();
  for (let from: number | null = 0; from !== null; ) {
    const page = await readChangesPage(storage.bucket, newer, older, from, CHANGES_PER_BATCH);
    const after = await fieldsIn(
      storage.db,
      newer,
      idsOf(page.changes, (c) => c.change !== "removed"),
    );
    const before = await previousFields(storage.db, seq, older, page.changes);
    const rows = changeRows(seq, page.changes, after, before, summary);
    if (rows.length) await storage.db.batch([storage.db.prepare(INSERT_ROWS).bind(JSON.stringify(rows))]);
    from = page.next;
  }
  return summary;
}

const idsOf = (changes: ReleaseChange[], keep: (change: ReleaseChange) => boolean) =>
  changes.filter(keep).map((change) => change.id);

async function fieldsIn(db: QueryDb, manifest: Manifest, ids: string[]): Promise<FieldsById> {
  if (ids.length === 0) return {};
  const row = await db
    .prepare(FIELDS_OF_IDS)
    .bind(hexOf(manifest.release_id), JSON.stringify(ids))
    .first<{ fields: string }>();
  return JSON.parse(row?.fields ?? "{}") as FieldsById;
}

/** The fields each changed or removed profile had: in `older`'s query rows, else its last history row. */
async function previousFields(db: QueryDb, seq: number, older: Manifest, changes: ReleaseChange[]) {
  const before = changes.filter((change) => change.change !== "added");
  const fields = await fieldsIn(
    db,
    older,
    before.map((change) => change.id),
  );
  const missing = before.filter((change) => !fields[change.id]);
  if (missing.length === 0) return fields;
  const keys = JSON.stringify(missing.map((change) => [change.productKey, change.funnelKey, change.id]));
  const row = await db.prepare(LAST_FIELDS).bind(seq, keys).first<{ fields: string }>();
  return { ...fields, ...(JSON.parse(row?.fields ?? "{}") as FieldsById) };
}

function eventLine(
  db: QueryDb,
  entry: Pick<HistoryEntry, "sequence" | "event" | "release_id" | "at">,
  previousId: string | null,
  summary: ChangeCounts | null,
) {
  return db
    .prepare(INSERT_EVENT)
    .bind(
      entry.sequence,
      hexOf(entry.release_id),
      previousId === null ? null : hexOf(previousId),
      entry.event,
      entry.at,
      summary && JSON.stringify(summary),
    );
}
