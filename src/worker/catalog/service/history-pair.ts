/**
 * Two releases the profile history knows, compared profile by profile (docs/history.md): a
 * release's state is the history up to an event that made it current; only profiles touched by an
 * event between the two can differ, and each of those is compared by its last row up to each
 * side's event. The summary (summary.ts) counts these; the explorer lists them.
 */
import { asDigest } from "../../../common/catalog/digest";
import { TRANSITION_FIELDS } from "../../../common/catalog/history-fields";
import { hexOf } from "../../../common/catalog/manifest";
import { catalogMiss } from "./errors";
import { releaseIdOf, resolveRelease } from "./release";

/** A profile's rated values at one side (TRANSITION_FIELDS by name) and the digest of its bytes. */
export interface SideState {
  sha256: string;
  values: Record<string, string>;
}

export interface ComparedProfile {
  agent_readiness_profile_id: string;
  product_key: string;
  funnel_key: string;
  change: "added" | "removed" | "changed";
  before: SideState | null;
  after: SideState | null;
}

export interface ReleasePair {
  release_id: string;
  since: string;
}

/** `[change, sha256, …transition fields]` of a profile's last row up to a side's event. */
type Row = [string, string | null, ...string[]];

const stateAt = (param: string) =>
  `(SELECT json_array(x.change, x.sha256, ${TRANSITION_FIELDS.map((f) => `x.${f.column}`).join(", ")}) ` +
  "FROM history_profiles x WHERE x.product_key = t.product_key AND x.funnel_key = t.funnel_key AND x.id = t.id " +
  `AND x.event_seq <= ${param} ORDER BY x.event_seq DESC LIMIT 1)`;
const TOUCHED =
  "WITH t AS (SELECT DISTINCT product_key, funnel_key, id FROM history_profiles WHERE event_seq > ?1 AND event_seq <= ?2) " +
  `SELECT t.id, t.product_key, t.funnel_key, ${stateAt("?3")} AS since_state, ${stateAt("?4")} AS release_state ` +
  "FROM t ORDER BY t.product_key, t.funnel_key, t.id";

/** The pair asked for: `releaseId` defaults to the current release; either id with or without `sha256:`. */
export async function pairOf(env: Env, asked: { releaseId?: string; since: string }): Promise<ReleasePair> {
  const current = await resolveRelease(env.CATALOG_KV);
  const release_id = asked.releaseId === undefined ? current.release_id : releaseIdOf(asked.releaseId);
  return { release_id, since: releaseIdOf(asked.since) };
}

/** Every profile that differs between the pair, in catalog order (product, funnel, id). */
export async function comparedProfiles(
  env: Env,
  pair: ReleasePair,
  events?: [number, number],
): Promise<ComparedProfile[]> {
  const [atRelease, atSince] = events ?? (await eventsOf(env.CATALOG_DB, pair));
  const { results } = await env.CATALOG_DB.prepare(TOUCHED)
    .bind(Math.min(atRelease, atSince), Math.max(atRelease, atSince), atSince, atRelease)
    .all<{
      id: string;
      product_key: string;
      funnel_key: string;
      since_state: string | null;
      release_state: string | null;
    }>();
  const compared: ComparedProfile[] = [];
  for (const row of results) {
    const before = present(row.since_state);
    const after = present(row.release_state);
    const change =
      before && after
        ? before.sha256 === after.sha256
          ? null
          : "changed"
        : after
          ? "added"
          : before
            ? "removed"
            : null;
    if (change === null) continue;
    compared.push({
      agent_readiness_profile_id: row.id,
      product_key: row.product_key,
      funnel_key: row.funnel_key,
      change,
      before,
      after,
    });
  }
  return compared;
}

/**
 * The latest event that made each release current, `[release_id's, since's]`; the miss names the
 * one the history does not know.
 */
export async function eventsOf(db: D1Database, pair: ReleasePair): Promise<[number, number]> {
  const { results } = await db
    .prepare("SELECT release, max(seq) AS seq FROM history_events WHERE release IN (?, ?) GROUP BY release")
    .bind(hexOf(pair.release_id), hexOf(pair.since))
    .all<{ release: string; seq: number }>();
  const seqOf = (id: string, side: "release_id" | "since") => {
    const found = results.find((row) => row.release === hexOf(id));
    if (!found) throw catalogMiss({ kind: "release_not_in_history", releaseId: id, side });
    return found.seq;
  };
  return [seqOf(pair.release_id, "release_id"), seqOf(pair.since, "since")];
}

/** A side's state, or null where the profile did not exist (never, or removed). */
function present(text: string | null): SideState | null {
  const row = text === null ? null : (JSON.parse(text) as Row);
  if (!row || row[0] === "removed" || row[1] === null) return null;
  const values = Object.fromEntries(TRANSITION_FIELDS.map((field, i) => [field.name, String(row[i + 2])]));
  return { sha256: asDigest(row[1]), values };
}

export interface HistoryEventView {
  release_id: string;
  previous_release_id: string | null;
  event: "publish" | "rollback";
  at: string;
}

/** The newest `limit` events of the release history, newest first: the releases a comparison can name. */
export async function historyEvents(env: Env, limit: number): Promise<HistoryEventView[]> {
  const { results } = await env.CATALOG_DB.prepare(
    "SELECT release, previous_release, event, at FROM history_events ORDER BY seq DESC LIMIT ?",
  )
    .bind(limit)
    .all<{ release: string; previous_release: string | null; event: "publish" | "rollback"; at: string }>();
  return results.map((row) => ({
    release_id: asDigest(row.release),
    previous_release_id: row.previous_release === null ? null : asDigest(row.previous_release),
    event: row.event,
    at: row.at,
  }));
}
