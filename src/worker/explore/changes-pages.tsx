/**
 * The explorer's "What changed" pages (docs/explorer.md): the summary of a pair of releases the
 * history knows and the profiles behind each of its counts, read through the catalog read
 * service (summary.ts, history-pair.ts). Bad parameters are a refusal page naming each problem; a
 * release the history does not know is refusals.tsx's page for that miss.
 */
import type { Context } from "hono";
import { transitionKey } from "../../common/catalog/history-fields";
import { comparedProfiles, type HistoryEventView, historyEvents, pairOf } from "../catalog/service/history-pair";
import { releaseIdOf, resolveRelease } from "../catalog/service/release";
import { compareReleases } from "../catalog/service/summary";
import type { DashboardEnv } from "../dashboard/context";
import { renderDashboard } from "../dashboard/page";
import { ChangedProfilesView } from "./changed-profiles";
import type { InputProblem } from "./compare-ids";
import { type ChangesAsked, listParamsOf, pairParamsOf } from "./changes-params";
import { ExplorePage, renderExploreRefusal } from "./page";
import { EXPLORE_PATHS } from "./paths";
import { WhatChangedView } from "./what-changed";

/** How many events of the history the form offers releases from. */
const OFFERED_EVENTS = 50;

function refuse(c: Context<DashboardEnv>, errors: InputProblem[]) {
  return renderExploreRefusal(
    c,
    400,
    "These releases cannot be compared",
    "Nothing was compared: the address has the problems below. Change them, or start again.",
    errors,
    { href: EXPLORE_PATHS.changes, label: "What changed in the latest publish" },
  );
}

/**
 * The pair asked for: `release` defaults to the current release, `since` to the release that was
 * current before `release` last became current; null `since` when that was the history's first event.
 */
async function pairAsked(c: Context<DashboardEnv>, asked: ChangesAsked, events: HistoryEventView[]) {
  const release = releaseIdOf(asked.release ?? (await resolveRelease(c.env.CATALOG_KV)).release_id);
  const made = events.find((event) => event.release_id === release);
  const since = asked.since === undefined ? (made?.previous_release_id ?? null) : releaseIdOf(asked.since);
  return { release, since };
}

export async function whatChangedPage(c: Context<DashboardEnv>) {
  const parsed = pairParamsOf(new URL(c.req.url));
  if (!parsed.ok) return refuse(c, parsed.errors);
  const events = await historyEvents(c.env, OFFERED_EVENTS);
  const { release, since } = await pairAsked(c, parsed.asked, events);
  const summary = since === null ? null : await compareReleases(c.env, { releaseId: release, since });
  return renderDashboard(
    c,
    <ExplorePage c={c} title="What changed">
      <WhatChangedView summary={summary} pair={{ release, since: since ?? release }} events={events} />
    </ExplorePage>,
  );
}

export async function changedProfilesPage(c: Context<DashboardEnv>) {
  const parsed = listParamsOf(new URL(c.req.url));
  if (!parsed.ok) return refuse(c, parsed.errors);
  const { asked } = parsed;
  const events = await historyEvents(c.env, OFFERED_EVENTS);
  const asking = await pairAsked(c, asked, events);
  if (asking.since === null)
    return refuse(c, [
      { parameter: "since", message: "is required: release began the history, nothing came before it" },
    ]);
  const pair = await pairOf(c.env, { releaseId: asking.release, since: asking.since });
  const profiles = (await comparedProfiles(c.env, pair)).filter(
    (profile) =>
      profile.change === asked.change &&
      (asked.field === undefined ||
        transitionKey(String(profile.before?.values[asked.field]), String(profile.after?.values[asked.field])) ===
          asked.transition),
  );
  return renderDashboard(
    c,
    <ExplorePage c={c} title="Profiles that changed">
      <ChangedProfilesView profiles={profiles} pair={{ release: pair.release_id, since: pair.since }} asked={asked} />
    </ExplorePage>,
  );
}
