/**
 * The profiles behind one count of the "What changed" page: those added, removed or changed
 * between the pair, or changed with one field's transition, in catalog order, each with its value
 * before and after and a link to its page (a removed one's page says it left the catalog).
 */
import type { ComparedProfile } from "../catalog/service/history-pair";
import { pairHref, type ReleasePairIds } from "./changes-links";
import type { ChangesAsked } from "./changes-params";
import { profilePagePath } from "./paths";
import { ScrollTable } from "./scroll-table";

/** The most rows one page shows: a count larger than this says how many more the API lists. */
const SHOWN_PROFILES = 500;

const sideValue = (side: ComparedProfile["before"], field: string) => side?.values[field] ?? "—";

export function ChangedProfilesView(props: { profiles: ComparedProfile[]; pair: ReleasePairIds; asked: ChangesAsked }) {
  const field = props.asked.field ?? "grade";
  const shown = props.profiles.slice(0, SHOWN_PROFILES);
  const what = props.asked.field ? `changed ${props.asked.field} ${props.asked.transition}` : props.asked.change;
  return (
    <>
      <p>
        <a href={pairHref(props.pair)}>Back to what changed</a>
      </p>
      <h1>Profiles {what}</h1>
      <p class="lead release-line" id="changed-summary">
        {props.profiles.length} profile(s) {what} in <code>{props.pair.release}</code> since{" "}
        <code>{props.pair.since}</code>
        {props.profiles.length > shown.length ? `; the first ${shown.length} shown, in catalog order` : ""}.
      </p>
      <ScrollTable
        class="changed-profiles"
        labelledBy="changed-summary"
        columns={["Profile", "Change", `${field} before`, `${field} after`]}
      >
        {shown.map((profile) => (
          <tr data-id={profile.agent_readiness_profile_id}>
            <th scope="row">
              <a href={profilePagePath(profile.agent_readiness_profile_id)}>
                {profile.product_key} / {profile.funnel_key}
              </a>
            </th>
            <td>{profile.change}</td>
            <td>{sideValue(profile.before, field)}</td>
            <td>{sideValue(profile.after, field)}</td>
          </tr>
        ))}
      </ScrollTable>
    </>
  );
}
