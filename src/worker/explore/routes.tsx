/**
 * The catalog explorer at /explore (docs/explorer.md), for a signed-in account: the dashboard's
 * session, navigation, CSRF and CSP. It is a door of the catalog read service (catalog/service/),
 * as GET /v1/profiles and the MCP tools are, so a view shows what the API answers for the same
 * query string, in one round trip and without an API key in the browser.
 * Each deployment's worker reads its own catalog: production's on production, the sandbox's there.
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { PROFILE_ID_PATTERN } from "../../common/catalog/schema";
import { MAX_LIMIT } from "../catalog/query-params";
import { isMiss } from "../catalog/service/errors";
import { type HistoryPage, profileHistoryPage } from "../catalog/service/history";
import { readProfile } from "../catalog/service/profile";
import { queryProfiles } from "../catalog/service/query";
import { resolveRelease } from "../catalog/service/release";
import { requireAccount } from "../dashboard/access";
import type { DashboardEnv } from "../dashboard/context";
import { renderDashboard } from "../dashboard/page";
import type { AppEnv } from "../http/context";
import { csrfProtection } from "../web/csrf";
import { LOGIN_PATH } from "../web/login-page";
import { loadSession } from "../web/session";
import { registerExploreAssets } from "./assets";
import { changedProfilesPage, whatChangedPage } from "./changes-pages";
import { compareIdsOf, type InputProblem } from "./compare-ids";
import { CompareView } from "./compare";
import { exploreQueryOf } from "./explore-query";
import { ExploreView } from "./explore-view";
import { ExplorePage, renderExploreRefusal } from "./page";
import { EXPLORE_PATHS } from "./paths";
import { ProfileView } from "./profile-page";
import { onExploreError } from "./refusals";

/** Signed out, a page view goes to the sign-in page, which continues back to the same view. */
const signInFirst = (): MiddlewareHandler<DashboardEnv> => async (c, next) => {
  if (c.var.session || (c.req.method !== "GET" && c.req.method !== "HEAD")) return next();
  const here = new URL(c.req.url);
  return c.redirect(`${LOGIN_PATH}?${new URLSearchParams({ continue: here.pathname + here.search })}`, 303);
};

async function explore(c: Context<DashboardEnv>) {
  const asked = exploreQueryOf(new URL(c.req.url));
  if (!asked.ok)
    return renderExploreRefusal(
      c,
      400,
      "These filters cannot be applied",
      "Nothing was looked up: the address has the problems below. Change them, or start again.",
      asked.errors,
    );
  const manifest = await resolveRelease(c.env.CATALOG_KV);
  const found = await queryProfiles(c.env, manifest, asked.query, { disjunctive: true });
  const profiles = found.profiles();
  return renderDashboard(
    c,
    <ExploreView
      c={c}
      releaseId={manifest.release_id}
      query={asked.query}
      params={asked.params}
      found={found}
      profiles={profiles}
    />,
  );
}

const unknownParameters = (url: URL, allowed: readonly string[]): InputProblem[] =>
  [...new Set(url.searchParams.keys())]
    .filter((name) => !allowed.includes(name))
    .map((name) => ({ parameter: name, message: `unknown parameter ${JSON.stringify(name)}` }));

/** Each profile by id in the current release, in order; the ids of the ones it does not hold. */
async function profilesById(c: Context<DashboardEnv>, ids: string[]) {
  const manifest = await resolveRelease(c.env.CATALOG_KV);
  const found = await Promise.all(
    ids.map((id) =>
      readProfile(c.env, manifest, { id }).catch((error: unknown) => {
        if (isMiss(error, "profile_not_found")) return id;
        throw error;
      }),
    ),
  );
  const missing = found.filter((entry) => typeof entry === "string");
  const shown = found.filter((entry) => typeof entry !== "string");
  return { manifest, missing, shown };
}

/** The newest page of a profile's history; none recorded yet (a deployment before history) is an empty one. */
const historyOf = (c: Context<DashboardEnv>, id: string): Promise<HistoryPage> =>
  profileHistoryPage(c.env, { id }, { limit: MAX_LIMIT }).catch((error: unknown) => {
    if (isMiss(error, "profile_never_existed")) return { data: [], next_cursor: null };
    throw error;
  });

const notHeld = (ids: string[]): InputProblem[] =>
  ids.map((id) => ({ parameter: "id", message: `the current release has no profile ${id}` }));

async function profilePage(c: Context<DashboardEnv>) {
  const id = c.req.param("id") ?? "";
  const problems = [
    ...unknownParameters(new URL(c.req.url), []),
    ...(PROFILE_ID_PATTERN.test(id)
      ? []
      : [{ parameter: "id", message: "is not a profile id (arp_ and 26 lowercase letters or digits)" }]),
  ];
  if (problems.length)
    return renderExploreRefusal(c, 400, "No such profile page", "This address cannot name a profile.", problems);
  const { manifest, missing, shown } = await profilesById(c, [id]);
  const [one] = shown;
  if (missing.length || !one)
    return renderExploreRefusal(c, 404, "Profile not found", "It may have left the catalog.", notHeld(missing));
  const view = { profile: one.profile, sha256: one.sha256, releaseId: manifest.release_id };
  const history = await historyOf(c, id);
  return renderDashboard(
    c,
    <ExplorePage c={c} title={`${one.profile.scope.product.name}: ${one.profile.scope.funnel.name}`}>
      <ProfileView shown={view} origin={c.var.publicOrigin} history={history} />
    </ExplorePage>,
  );
}

async function comparePage(c: Context<DashboardEnv>) {
  const asked = compareIdsOf(new URL(c.req.url));
  if (!asked.ok)
    return renderExploreRefusal(
      c,
      400,
      "Nothing to compare",
      "Go back, tick 2 to 5 profiles, then Compare.",
      asked.errors,
    );
  const { missing, shown } = await profilesById(c, asked.ids);
  if (missing.length)
    return renderExploreRefusal(
      c,
      404,
      "Profile not found",
      "Some profiles are not in the current release.",
      notHeld(missing),
    );
  return renderDashboard(
    c,
    <ExplorePage c={c} title="Compare profiles">
      <CompareView profiles={shown.map((entry) => entry.profile)} />
    </ExplorePage>,
  );
}

export function registerExploreRoutes(app: Hono<AppEnv>): void {
  const explorer = new Hono<DashboardEnv>();
  explorer.onError(onExploreError);
  registerExploreAssets(explorer);
  const pages = new Hono<DashboardEnv>();
  for (const path of [EXPLORE_PATHS.home, `${EXPLORE_PATHS.home}/*`])
    pages.use(path, loadSession(), signInFirst(), csrfProtection(), requireAccount());
  pages.get(EXPLORE_PATHS.home, explore);
  pages.get(EXPLORE_PATHS.profile, profilePage);
  pages.get(EXPLORE_PATHS.compare, comparePage);
  pages.get(EXPLORE_PATHS.changes, whatChangedPage);
  pages.get(EXPLORE_PATHS.changedProfiles, changedProfilesPage);
  pages.get(`${EXPLORE_PATHS.home}/*`, (c) =>
    renderExploreRefusal(c, 404, "Page not found", `The explorer has no page at ${c.req.path}.`),
  );
  explorer.route("/", pages);
  app.route("/", explorer as unknown as Hono<AppEnv>);
}
