/**
 * Compare 2–5 profiles side by side: one column per profile, one row per fact and per stage in
 * order. A row whose values are not all the same is marked "Differs" in words (and highlighted),
 * so the difference never rests on colour alone.
 */
import type { Child } from "hono/jsx";
import { STAGE_LABELS, STAGES, STATE_LABELS, type Profile } from "../../common/catalog/schema";
import { EXPLORE_PATHS, profilePagePath } from "./paths";
import { firstNotReady, STATE_MARK, utcMinute } from "./stage-strip";

interface Row {
  label: string;
  /** What is compared, per profile. */
  keys: string[];
  cells: Child[];
}

function rowsOf(profiles: Profile[]): Row[] {
  const fact = (label: string, read: (p: Profile) => string): Row => ({
    label,
    keys: profiles.map(read),
    cells: profiles.map(read),
  });
  return [
    fact("Grade", (p) => p.grade),
    fact("Overall outcome", (p) => `${p.state_label} (${p.overall_outcome})`),
    fact("First stage not ready", firstNotReady),
    fact("Coverage", (p) => `${p.coverage.covered_signals} of ${p.coverage.required_signals} (${p.coverage.status})`),
    fact("Freshness", (p) => p.freshness),
    fact("Last tested", (p) => utcMinute(p.last_tested_at)),
    ...STAGES.map((name): Row => {
      const stages = profiles.map((p) => p.stages.find((stage) => stage.stage === name));
      return {
        label: STAGE_LABELS[name],
        keys: stages.map((stage) => stage?.public_state ?? "missing"),
        cells: stages.map((stage) =>
          stage ? (
            <>
              <strong class={`state-${stage.public_state}`}>
                {STATE_MARK[stage.public_state]} {STATE_LABELS[stage.public_state]}
              </strong>
              <br />
              <span class="muted">{stage.primary_finding.finding}</span>
            </>
          ) : (
            "—"
          ),
        ),
      };
    }),
  ];
}

export function CompareView(props: { profiles: Profile[] }) {
  const rows = rowsOf(props.profiles);
  const differing = rows.filter((row) => new Set(row.keys).size > 1).length;
  return (
    <>
      <p>
        <a href={EXPLORE_PATHS.home}>Back to the explorer</a>
      </p>
      <h1>Compare {props.profiles.length} profiles</h1>
      <p class="lead" id="compare-summary">
        {differing === 0
          ? "These profiles agree on every row."
          : `${differing} of ${rows.length} rows differ; they are marked “Differs”.`}
      </p>
      {/* biome-ignore lint/a11y/useSemanticElements: a scrolling region must be focusable and named (axe scrollable-region-focusable). */}
      <div class="table-scroll" tabindex={0} role="region" aria-labelledby="compare-summary">
        <table class="compare">
          <thead>
            <tr>
              <th scope="col">
                <span class="visually-hidden">Fact</span>
              </th>
              {props.profiles.map((p) => (
                <th scope="col">
                  <a href={profilePagePath(p.agent_readiness_profile_id)}>{p.scope.product.name}</a>
                  <br />
                  <span class="muted">{p.scope.funnel.name}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const differs = new Set(row.keys).size > 1;
              return (
                <tr class={differs ? "differs" : undefined}>
                  <th scope="row">
                    {row.label}
                    {differs ? <span class="differs-badge">Differs</span> : null}
                  </th>
                  {row.cells.map((cell) => (
                    <td>{cell}</td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
