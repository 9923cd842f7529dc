/**
 * How two releases differ, counted (docs/history.md): from the profile history alone
 * (history-pair.ts), so any two releases the history knows compare, kept or pruned. The REST
 * route, the MCP tool `compare_releases` and the explorer's "What changed" page all read it here.
 */
import { TRANSITION_FIELDS, transitionKey } from "../../../common/catalog/history-fields";
import { comparedProfiles, pairOf, type SideState } from "./history-pair";

type Transitions = Record<string, Record<string, number>>;

export interface ChangesSummaryView {
  release_id: string;
  since: string;
  added: number;
  removed: number;
  changed: number;
  transitions: Transitions;
}

/**
 * The summary of `releaseId` (default: the current release) since `since`, either id with or
 * without `sha256:`. Misses: no_release before the first publish, release_not_in_history naming
 * the side the history does not know.
 */
export async function compareReleases(
  env: Env,
  asked: { releaseId?: string; since: string },
): Promise<ChangesSummaryView> {
  const pair = await pairOf(env, asked);
  const summary: ChangesSummaryView = { ...pair, added: 0, removed: 0, changed: 0, transitions: {} };
  const transitions: Transitions = Object.fromEntries(TRANSITION_FIELDS.map((field) => [field.name, {}]));
  for (const profile of await comparedProfiles(env, pair)) {
    summary[profile.change]++;
    if (profile.before && profile.after) count(transitions, profile.before, profile.after);
  }
  summary.transitions = sortedTransitions(transitions);
  return summary;
}

function count(transitions: Transitions, before: SideState, after: SideState) {
  for (const field of TRANSITION_FIELDS) {
    const [old, now] = [before.values[field.name], after.values[field.name]];
    if (old === undefined || now === undefined || old === now) continue;
    const counts = transitions[field.name] ?? {};
    const key = transitionKey(old, now);
    counts[key] = (counts[key] ?? 0) + 1;
    transitions[field.name] = counts;
  }
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
