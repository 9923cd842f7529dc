/**
 * Profiles side by side: one column per profile, one row per fact and per stage in order. A row
 * whose values are not all the same is marked "Differs" in words (and highlighted), so the
 * difference never rests on colour alone. Rendered by the explorer's compare page and by the MCP
 * App view of compare_profiles; each door names the column heads its own way.
 */
import type { Child } from "hono/jsx";
import { STAGE_LABELS, STAGES, STATE_LABELS, type Profile } from "../../common/catalog/schema";
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

/** How many of the table's rows differ, and of how many: the sentence that introduces the table. */
export function compareSummaryOf(profiles: Profile[]): string {
  const rows = rowsOf(profiles);
  const differing = rows.filter((row) => new Set(row.keys).size > 1).length;
  return differing === 0
    ? "These profiles agree on every row."
    : `${differing} of ${rows.length} rows differ; they are marked “Differs”.`;
}

/** `head`: a column's heading for one profile (the explorer links it to the profile's page). */
export function CompareTable(props: { profiles: Profile[]; labelledBy: string; head: (p: Profile) => Child }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a scrolling region must be focusable and named (axe scrollable-region-focusable).
    <div class="table-scroll" tabindex={0} role="region" aria-labelledby={props.labelledBy}>
      <table class="compare">
        <thead>
          <tr>
            <th scope="col">
              <span class="visually-hidden">Fact</span>
            </th>
            {props.profiles.map((p) => (
              <th scope="col">
                {props.head(p)}
                <br />
                <span class="muted">{p.scope.funnel.name}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rowsOf(props.profiles).map((row) => {
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
  );
}
