/**
 * The results: the exact count, one row per profile of the page (names, grade, the stage strip,
 * when it was last tested), the next page's link (keyset paging, the query's own cursor) and a
 * checkbox per row that feeds the compare page (its own GET form).
 */
import type { Profile } from "../../common/catalog/schema";
import { MAX_COMPARED, MIN_COMPARED } from "./compare-ids";
import { EXPLORE_PATHS, profilePagePath } from "./paths";
import { StageStrip, StripLegend, utcMinute } from "../views/stage-strip";

export function Results(props: {
  count: number;
  profiles: Profile[];
  nextHref: string | null;
  firstHref: string | null;
}) {
  const { count, profiles } = props;
  return (
    <section class="results" aria-labelledby="results-heading">
      <div class="section-heading">
        <h2 id="results-heading">Profiles</h2>
        <p class="count" id="match-count" role="status">
          {`${count} ${count === 1 ? "profile matches" : "profiles match"}`}
        </p>
      </div>
      {profiles.length === 0 ? (
        <p class="empty">No profile matches these filters. Remove one, or clear them all.</p>
      ) : (
        <form method="get" action={EXPLORE_PATHS.compare}>
          <StripLegend />
          <table class="cards explore-results">
            <thead>
              <tr>
                <th scope="col">Compare</th>
                <th scope="col">Product and funnel</th>
                <th scope="col">Grade</th>
                <th scope="col">Stages</th>
                <th scope="col">Last tested</th>
              </tr>
            </thead>
            <tbody>
              {profiles.map((profile) => {
                const id = profile.agent_readiness_profile_id;
                const name = `${profile.scope.product.name}, ${profile.scope.funnel.name}`;
                return (
                  <tr data-profile-id={id}>
                    <td data-label="Compare">
                      <input type="checkbox" name="id" value={id} id={`cmp-${id}`} aria-label={`Compare ${name}`} />
                    </td>
                    <td data-label="Profile">
                      <a href={profilePagePath(id)}>{profile.scope.product.name}</a>
                      <br />
                      <span class="muted">{profile.scope.funnel.name}</span>
                    </td>
                    <td data-label="Grade">
                      <span class="grade">{profile.grade}</span>
                    </td>
                    <td data-label="Stages">
                      <StageStrip stages={profile.stages} />
                    </td>
                    <td data-label="Last tested">
                      <time datetime={profile.last_tested_at}>{utcMinute(profile.last_tested_at)}</time>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div class="actions">
            <button class="secondary" type="submit">
              Compare selected
            </button>
            <span class="hint">{`Tick ${MIN_COMPARED} to ${MAX_COMPARED} profiles.`}</span>
          </div>
        </form>
      )}
      <nav class="pager" aria-label="Pages">
        {props.firstHref ? <a href={props.firstHref}>First page</a> : null}
        {props.nextHref ? (
          <a class="button secondary" href={props.nextHref} rel="next">
            Next page
          </a>
        ) : profiles.length ? (
          <span class="muted">Last page.</span>
        ) : null}
      </nav>
    </section>
  );
}
