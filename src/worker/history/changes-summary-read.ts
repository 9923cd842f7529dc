/**
 * How two releases differ, counted (docs/history.md): from the profile history alone, so any two
 * releases the history knows compare, kept or pruned. A release's state is the history up to an
 * event that made it current; only profiles touched by an event between the two can differ, and
 * each of those is compared by its last row up to each side's event. The REST route and the MCP
 * tool `compare_releases` both answer with this.
 */
import { hexOf } from "../../common/catalog/manifest";
import { TRANSITION_FIELDS, transitionKey } from "../../common/catalog/history-fields";
import { Problem } from "../http/problem";

type Transitions = Record<string, Record<string, number>>;

export interface ChangesSummaryView {
  release_id: string;
  since: string;
  added: number;
  removed: number;
  changed: number;
  transitions: Transitions;
}

/** A state is `[change, sha256, …transition fields]` of the profile's last row, or null before it existed. */
type State = [string, string | null, ...string[]] | null;

const stateAt = (param: string) =>
  `(SELECT json_array(x.change, x.sha256, ${TRANSITION_FIELDS.map((f) => `x.${f.column}`).join(", ")}) ` +
  "FROM history_profiles x WHERE x.product_key = t.product_key AND x.funnel_key = t.funnel_key AND x.id = t.id " +
  `AND x.event_seq <= ${param} ORDER BY x.event_seq DESC LIMIT 1)`;
const TOUCHED =
  "WITH t AS (SELECT DISTINCT product_key, funnel_key, id FROM history_profiles WHERE event_seq > ?1 AND event_seq <= ?2) " +
  `SELECT ${stateAt("?3")} AS since_state, ${stateAt("?4")} AS release_state FROM t`;

export async function changesSummary(env: Env, releaseId: string, since: string): Promise<ChangesSummaryView> {
  const [atRelease, atSince] = await eventsOf(env.CATALOG_DB, releaseId, since);
  const { results } = await env.CATALOG_DB.prepare(TOUCHED)
    .bind(Math.min(atRelease, atSince), Math.max(atRelease, atSince), atSince, atRelease)
    .all<{ since_state: string | null; release_state: string | null }>();
  const summary: ChangesSummaryView = {
    release_id: releaseId,
    since,
    added: 0,
    removed: 0,
    changed: 0,
    transitions: {},
  };
  const transitions: Transitions = Object.fromEntries(TRANSITION_FIELDS.map((field) => [field.name, {}]));
  for (const row of results) {
    const before = present(row.since_state);
    const after = present(row.release_state);
    if (before && after) {
      if (before[1] === after[1]) continue;
      summary.changed++;
      count(transitions, before, after);
    } else if (after) summary.added++;
    else if (before) summary.removed++;
  }
  summary.transitions = sortedTransitions(transitions);
  return summary;
}

/** The latest event that made each release current; 404 naming the one the history does not know. */
async function eventsOf(db: D1Database, releaseId: string, since: string): Promise<[number, number]> {
  const { results } = await db
    .prepare("SELECT release, max(seq) AS seq FROM history_events WHERE release IN (?, ?) GROUP BY release")
    .bind(hexOf(releaseId), hexOf(since))
    .all<{ release: string; seq: number }>();
  const seqOf = (id: string, parameter: string) => {
    const found = results.find((row) => row.release === hexOf(id));
    if (!found)
      throw new Problem(
        "release_not_found",
        `${parameter} ${id} was never made current on this deployment since its history began; GET /v1/releases lists releases.`,
        { extra: { release_id: id } },
      );
    return found.seq;
  };
  return [seqOf(releaseId, "release_id"), seqOf(since, "since")];
}

function present(text: string | null): State {
  const state = text === null ? null : (JSON.parse(text) as State);
  return state && state[0] !== "removed" ? state : null;
}

function count(transitions: Transitions, before: NonNullable<State>, after: NonNullable<State>) {
  TRANSITION_FIELDS.forEach((field, i) => {
    const [old, now] = [before[i + 2], after[i + 2]] as (string | null | undefined)[];
    if (typeof old !== "string" || typeof now !== "string" || old === now) return;
    const counts = transitions[field.name] ?? {};
    const key = transitionKey(old, now);
    counts[key] = (counts[key] ?? 0) + 1;
    transitions[field.name] = counts;
  });
}

/** Each field's transitions, largest first, ties by key: the same answer every time. */
function sortedTransitions(transitions: Transitions): Transitions {
  return Object.fromEntries(
    Object.entries(transitions).map(([name, counts]) => [
      name,
      Object.fromEntries(Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))),
    ]),
  );
}
