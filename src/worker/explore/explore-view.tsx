/**
 * The explorer's main page: filters on the left (folded above the results on a phone); on the
 * right the page of results, then the charts of the current matches. Everything comes from one
 * run of the query engine.
 */
import type { Context } from "hono";
import type { Profile } from "../../common/catalog/schema";
import type { ProfileQuery } from "../catalog/query-params";
import type { QueryAnswer } from "../catalog/service/query";
import type { DashboardEnv } from "../dashboard/context";
import { GradeChart, StageChart } from "./charts";
import { viewHref } from "./explore-query";
import { Filters } from "./filters";
import { ExplorePage } from "./page";
import { EXPLORE_PATHS } from "./paths";
import { Results } from "./results";

export function ExploreView(props: {
  c: Context<DashboardEnv>;
  releaseId: string;
  query: ProfileQuery;
  params: URLSearchParams;
  found: QueryAnswer;
  profiles: Profile[];
}) {
  const { query, params, found } = props;
  const facets = found.facets ?? {};
  const glance = countsOfMatches(facets, query);
  const nextHref = found.nextCursor ? viewHref(EXPLORE_PATHS.home, params, { cursor: found.nextCursor }) : null;
  const firstHref = query.cursor ? viewHref(EXPLORE_PATHS.home, params) : null;
  return (
    <ExplorePage c={props.c} title="Explore the catalog">
      <h1>Explore the catalog</h1>
      <p class="lead release-line">
        The current release of this deployment, <code>{props.releaseId}</code>. Every view is a link: bookmark or share
        it.
      </p>
      <nav aria-label="Explorer pages">
        <a href={EXPLORE_PATHS.changes}>What changed in the latest publish</a>
      </nav>
      <div class="explore-layout">
        <Filters query={query} params={params} facets={facets} />
        <div>
          <Results count={found.count} profiles={props.profiles} nextHref={nextHref} firstHref={firstHref} />
          <section aria-labelledby="glance-heading">
            <h2 id="glance-heading">At a glance</h2>
            <div class="charts">
              <GradeChart facets={glance} />
              <StageChart facets={glance} />
            </div>
          </section>
        </div>
      </div>
    </ExplorePage>
  );
}

/**
 * The counts over the current matches, from the disjunctive ones: a facet counted without its own
 * filter, kept to the values chosen, counts exactly the matches (the rest match no longer).
 */
function countsOfMatches(facets: Record<string, Record<string, number>>, query: ProfileQuery) {
  return Object.fromEntries(
    Object.entries(facets).map(([name, counts]) => {
      const chosen = query.filters.get(name);
      return [
        name,
        chosen ? Object.fromEntries(Object.entries(counts).filter(([value]) => chosen.includes(value))) : counts,
      ];
    }),
  );
}
