/**
 * Compare 2–5 profiles side by side (the shared table of views/compare-table.tsx), each column
 * head linking to the profile's page.
 */
import type { Profile } from "../../common/catalog/schema";
import { CompareTable, compareSummaryOf } from "../views/compare-table";
import { EXPLORE_PATHS, profilePagePath } from "./paths";

export function CompareView(props: { profiles: Profile[] }) {
  return (
    <>
      <p>
        <a href={EXPLORE_PATHS.home}>Back to the explorer</a>
      </p>
      <h1>Compare {props.profiles.length} profiles</h1>
      <p class="lead" id="compare-summary">
        {compareSummaryOf(props.profiles)}
      </p>
      <CompareTable
        profiles={props.profiles}
        labelledBy="compare-summary"
        head={(p) => <a href={profilePagePath(p.agent_readiness_profile_id)}>{p.scope.product.name}</a>}
      />
    </>
  );
}
