/**
 * The catalog at a glance, for the current filter: the grade distribution and each stage's
 * ready/limited split, drawn by the server as inline SVG from the query's own facets (no script, no
 * other origin, nothing the CSP has to allow). Every bar carries its value as text, and each chart
 * has a text summary as its accessible name, so no figure depends on colour.
 */
import type { Child } from "hono/jsx";
import { GRADES, STAGE_LABELS, STAGES } from "../../common/catalog/schema";

type Facets = Record<string, Record<string, number>>;

const WIDTH = 320;
const ROW = 22;
const LABEL = 70;
const BAR = WIDTH - LABEL - 48;

const share = (n: number, total: number) => (total > 0 ? Math.round((n / total) * BAR) : 0);

/** A chart's frame: a visible caption, and the SVG named by its title and text summary (its accessible name). */
export function Chart(props: { id: string; title: string; summary: string; height: number; children: Child }) {
  return (
    <figure class="chart">
      <figcaption aria-hidden="true">{props.title}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${props.height}`}
        width={WIDTH}
        height={props.height}
        role="img"
        aria-labelledby={`${props.id}-title ${props.id}-desc`}
      >
        <title id={`${props.id}-title`}>{props.title}</title>
        <desc id={`${props.id}-desc`}>{props.summary}</desc>
        {props.children}
      </svg>
    </figure>
  );
}

export function GradeChart(props: { facets: Facets }) {
  const counts = GRADES.map((grade) => ({ grade, n: props.facets.grade?.[grade] ?? 0 }));
  const most = Math.max(1, ...counts.map((c) => c.n));
  const summary = counts.map((c) => `${c.grade}: ${c.n}`).join(", ");
  const height = counts.length * ROW + 4;
  return (
    <Chart id="grade-chart" title="Grades" summary={`Profiles per grade. ${summary}.`} height={height}>
      {counts.map((c, i) => {
        const y = i * ROW + 2;
        const width = Math.round((c.n / most) * BAR);
        return (
          <g>
            <text class="chart-label" x={0} y={y + 15}>
              {c.grade}
            </text>
            <rect class="bar-grade" x={LABEL} y={y + 3} width={width} height={ROW - 8} rx={2} />
            <text class="chart-value" x={LABEL + width + 6} y={y + 15}>
              {String(c.n)}
            </text>
          </g>
        );
      })}
    </Chart>
  );
}

export function StageChart(props: { facets: Facets }) {
  const stages = STAGES.map((stage) => {
    const counts = props.facets[`stage.${stage}`] ?? {};
    return { stage, ready: counts.ready ?? 0, limited: counts.limited ?? 0 };
  });
  const summary = stages.map((s) => `${STAGE_LABELS[s.stage]}: ${s.ready} ready, ${s.limited} limited`).join("; ");
  const height = stages.length * ROW * 1.5 + 4;
  return (
    <Chart id="stage-chart" title="Stages: ready / limited" summary={`${summary}.`} height={height}>
      {stages.map((s, i) => {
        const y = i * ROW * 1.5 + 2;
        const total = s.ready + s.limited;
        const ready = share(s.ready, total);
        return (
          <g>
            <text class="chart-label" x={0} y={y + 15}>
              {STAGE_LABELS[s.stage]}
            </text>
            <rect class="bar-ready" x={LABEL} y={y + 3} width={ready} height={ROW - 8} />
            <rect class="bar-limited" x={LABEL + ready} y={y + 3} width={share(s.limited, total)} height={ROW - 8} />
            <text class="chart-note" x={LABEL} y={y + ROW + 9}>
              {`✓ ${s.ready} ready · ! ${s.limited} limited`}
            </text>
          </g>
        );
      })}
    </Chart>
  );
}
