/**
 * One profile, as a person reads it: the five stages in order with each headline finding, its
 * condition and context; the grade and how it is derived; coverage as a bar; freshness and
 * provenance; the release it comes from, its SHA-256, and the `curl` that fetches exactly these
 * bytes (the pinned URL of the same profile), with a Copy button; and its history as a timeline.
 */
import { STATE_LABELS, type Profile } from "../../common/catalog/schema";
import { profileIdPath } from "../catalog/service/profile";
import { SecretField } from "../dashboard/new-key-panel";
import type { HistoryPage } from "../catalog/service/history";
import { EXPLORE_PATHS } from "./paths";
import { firstNotReady, STATE_MARK, utcMinute } from "../views/stage-strip";
import { Timeline } from "./timeline";

export interface ShownProfile {
  profile: Profile;
  /** `sha256:<hex>` of the profile's bytes, from the release index. */
  sha256: string;
  releaseId: string;
}

/** The request that returns exactly the profile's bytes: the pinned URL, which never changes. */
export const curlOf = (origin: string, shown: ShownProfile) =>
  `curl -sS -H "Authorization: Bearer $CATALOG_API_KEY" ${origin}${profileIdPath(shown.releaseId, shown.profile.agent_readiness_profile_id)}`;

const percent = (ratio: number) => `${Math.round(ratio * 100)} %`;

function Stages(props: { profile: Profile }) {
  return (
    <ol class="stage-list">
      {props.profile.stages.map((stage) => (
        <li class={`stage-item state-${stage.public_state}`}>
          <h3>
            {stage.stage_label}:{" "}
            <span class="state-badge">
              {STATE_MARK[stage.public_state]} {STATE_LABELS[stage.public_state]}
            </span>
          </h3>
          <p class="finding">{stage.primary_finding.finding}</p>
          <dl class="facts">
            <dt>Condition</dt>
            <dd>{stage.primary_finding.condition}</dd>
            <dt>Context</dt>
            <dd>{stage.primary_finding.context}</dd>
            <dt>Signal</dt>
            <dd>
              <code>{stage.primary_finding.signal_code}</code>
            </dd>
          </dl>
        </li>
      ))}
    </ol>
  );
}

function CoverageBar(props: { coverage: Profile["coverage"] }) {
  const c = props.coverage;
  return (
    <>
      <label for="coverage-meter">
        {`Graded signals covered: ${c.covered_signals} of ${c.required_signals} (${percent(c.ratio)}, ${c.status})`}
      </label>
      <meter id="coverage-meter" min={0} max={c.required_signals} value={c.covered_signals}>
        {percent(c.ratio)}
      </meter>
      <label for="barrier-meter">
        {`Barrier signals verified: ${c.verified_barrier_signals} of ${c.barrier_signals} (${percent(c.barrier_ratio)})`}
      </label>
      <meter id="barrier-meter" min={0} max={c.barrier_signals} value={c.verified_barrier_signals}>
        {percent(c.barrier_ratio)}
      </meter>
    </>
  );
}

export function ProfileView(props: { shown: ShownProfile; origin: string; history: HistoryPage }) {
  const { profile, sha256, releaseId } = props.shown;
  const derivation = profile.grade_derivation;
  return (
    <>
      <p>
        <a href={EXPLORE_PATHS.home}>Back to the explorer</a>
      </p>
      <h1>
        {profile.scope.product.name}: {profile.scope.funnel.name}
      </h1>
      <p class="lead">
        Grade <strong class="grade">{profile.grade}</strong>, overall {profile.state_label.toLowerCase()} (
        {profile.overall_outcome}); first stage not ready: {firstNotReady(profile)}.
      </p>
      <h2>Stages</h2>
      <Stages profile={profile} />
      <h2>Grade and its derivation</h2>
      <dl class="facts">
        <dt>{derivation.label}</dt>
        <dd>{derivation.explanation}</dd>
        <dt>Coverage rule</dt>
        <dd>{derivation.coverage_rule}</dd>
        <dt>Outcome rule</dt>
        <dd>{derivation.outcome_rule}</dd>
        <dt>Policy</dt>
        <dd>
          {profile.policy_version}, as of {profile.policy_as_of}
        </dd>
      </dl>
      <h2>Coverage</h2>
      <CoverageBar coverage={profile.coverage} />
      <h2>Freshness and provenance</h2>
      <dl class="facts">
        <dt>Freshness</dt>
        <dd>{profile.freshness}</dd>
        <dt>Last tested</dt>
        <dd>
          <time datetime={profile.last_tested_at}>{utcMinute(profile.last_tested_at)}</time>
        </dd>
        <dt>Effective from</dt>
        <dd>{profile.effective_from}</dd>
        <dt>Dispute</dt>
        <dd>{profile.provenance.dispute}</dd>
        <dt>Vendor attestation</dt>
        <dd>{profile.provenance.vendor_attestation.status}</dd>
        <dt>Publisher's page</dt>
        <dd>
          <a href={profile.canonical_url}>{profile.canonical_url}</a>
        </dd>
      </dl>
      <h2>History</h2>
      <Timeline entries={props.history.data} more={props.history.next_cursor !== null} />
      <h2>Release and bytes</h2>
      <dl class="facts">
        <dt>Release</dt>
        <dd>
          <code>{releaseId}</code>
        </dd>
        <dt>Profile id</dt>
        <dd>
          <code>{profile.agent_readiness_profile_id}</code>
        </dd>
        <dt>SHA-256 of its bytes</dt>
        <dd>
          <code id="profile-sha256">{sha256}</code>
        </dd>
      </dl>
      <SecretField
        id="curl-command"
        label="The request that fetches exactly these bytes"
        value={curlOf(props.origin, props.shown)}
      />
      <p class="hint">
        With an API key in <code>CATALOG_API_KEY</code>; piped to <code>sha256sum</code> it prints the digest above.
      </p>
    </>
  );
}
