/**
 * One page of a profile's history (docs/history.md) from D1 `history_profiles`, newest first,
 * each row with its event's line (`history_events`; rows without one are an interrupted write and
 * not shown). Keyset paging on (event, product key, funnel key, id). The REST route, the MCP
 * tool `profile_history` and the explorer's timeline all read it here.
 */
import { asDigest } from "../../../common/catalog/digest";
import { RATED_FIELDS } from "../../../common/catalog/history-fields";
import { STAGES } from "../../../common/catalog/schema";
import { decodeHistoryCursor, encodeHistoryCursor, type HistoryPosition } from "../history-cursor";
import { catalogMiss, type ProfileRef } from "./errors";
import { resolveRelease } from "./release";

export interface HistoryPage {
  data: HistoryEntryView[];
  /** The cursor of the next page, or null on the last. */
  next_cursor: string | null;
}

interface HistoryRow {
  product_key: string;
  funnel_key: string;
  event_seq: number;
  id: string;
  change: "added" | "changed" | "removed";
  sha256: string | null;
  previous_sha256: string | null;
  release: string;
  previous_release: string | null;
  event: "publish" | "rollback";
  at: string;
  fields_changed: string;
  [column: string]: unknown;
}

const COLUMNS = `h.product_key, h.funnel_key, h.event_seq, h.id, h.change, h.sha256, h.previous_sha256, ${RATED_FIELDS.map((f) => `h.${f.column}`).join(", ")}, h.fields_changed, e.release, e.previous_release, e.event, e.at`;
const FROM = "FROM history_profiles h JOIN history_events e ON e.seq = h.event_seq";
const ORDER = "ORDER BY h.event_seq DESC, h.product_key DESC, h.funnel_key DESC, h.id DESC LIMIT ?";
const AFTER = "AND (h.event_seq, h.product_key, h.funnel_key, h.id) < (?, ?, ?, ?)";

/**
 * `limit` entries from `cursor` (or the newest). Misses: no_release before the first publish (as
 * every catalog read), profile_never_existed, invalid_history_cursor.
 */
export async function profileHistoryPage(
  env: Env,
  target: ProfileRef,
  options: { limit: number; cursor?: string },
): Promise<HistoryPage> {
  await resolveRelease(env.CATALOG_KV);
  const after = options.cursor === undefined ? undefined : await decodeHistoryCursor(env, target, options.cursor);
  const rows = await historyRows(env.CATALOG_DB, target, after, options.limit + 1);
  if (rows.length === 0 && after === undefined) throw catalogMiss({ kind: "profile_never_existed", ref: target });
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const next =
    rows.length > options.limit && last
      ? await encodeHistoryCursor(env, target, [last.event_seq, last.product_key, last.funnel_key, last.id])
      : null;
  return { data: page.map(entryView), next_cursor: next };
}

async function historyRows(db: D1Database, target: ProfileRef, after: HistoryPosition | undefined, limit: number) {
  const where = "id" in target ? "WHERE h.id = ?" : "WHERE h.product_key = ? AND h.funnel_key = ?";
  const args: unknown[] = "id" in target ? [target.id] : [target.product, target.funnel];
  const sql = `SELECT ${COLUMNS} ${FROM} ${where} ${after ? AFTER : ""} ${ORDER}`;
  const { results } = await db
    .prepare(sql)
    .bind(...args, ...(after ?? []), limit)
    .all<HistoryRow>();
  return results;
}

const digestOrNull = (hex: string | null) => (hex === null ? null : asDigest(hex));

/** One entry as the route and the tool show it. */
function entryView(row: HistoryRow) {
  const value = (column: string) => String(row[column]);
  return {
    event_at: row.at,
    release_id: asDigest(row.release),
    previous_release_id: digestOrNull(row.previous_release),
    event: row.event,
    change: row.change,
    agent_readiness_profile_id: row.id,
    product_key: row.product_key,
    funnel_key: row.funnel_key,
    sha256: digestOrNull(row.sha256),
    previous_sha256: digestOrNull(row.previous_sha256),
    grade: value("grade"),
    overall_outcome: value("overall_outcome"),
    public_state: value("public_state"),
    primary_stage: value("primary_stage"),
    stages: Object.fromEntries(STAGES.map((stage) => [stage, value(`stage_${stage}`)])),
    last_tested_at: value("last_tested_at"),
    fields_changed: JSON.parse(row.fields_changed) as string[],
  };
}

export type HistoryEntryView = ReturnType<typeof entryView>;
