/**
 * The Usage page's chart, drawn on the server as SVG (no script): per hour or day, a bar of
 * requests, inside it the errors, and inside those the 429s. Scaled to the busiest point; the
 * numbers themselves are in the page's tables and the CSV.
 */
import type { UsagePoint } from "../usage/usage-types";

const WIDTH = 720;
const HEIGHT = 180;
const AXIS = 2;

const heightOf = (value: number, max: number) => (max === 0 ? 0 : ((HEIGHT - AXIS) * value) / max);

export function UsageChart(props: { series: readonly UsagePoint[]; label: string }) {
  const { series } = props;
  const max = Math.max(0, ...series.map((point) => point.requests));
  const slot = WIDTH / Math.max(1, series.length);
  const bar = Math.max(1, slot * 0.8);
  const first = series[0]?.start ?? "";
  const last = series.at(-1)?.start ?? "";
  return (
    <figure class="usage-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="usage-chart-title" preserveAspectRatio="none">
        <title id="usage-chart-title">{`${props.label}: at most ${max} requests in one point`}</title>
        {series.map((point, i) => {
          const x = i * slot + (slot - bar) / 2;
          const rect = (kind: string, value: number) => (
            <rect
              class={kind}
              x={x}
              y={HEIGHT - AXIS - heightOf(value, max)}
              width={bar}
              height={heightOf(value, max)}
            />
          );
          return (
            <g>
              {rect("bar-requests", point.requests)}
              {rect("bar-errors", point.errors)}
              {rect("bar-limited", point.rate_limited)}
            </g>
          );
        })}
        <line class="axis" x1="0" y1={HEIGHT - AXIS} x2={WIDTH} y2={HEIGHT - AXIS} />
      </svg>
      <figcaption>
        {`From ${first.slice(0, 16).replace("T", " ")} to ${last.slice(0, 16).replace("T", " ")} UTC, one bar per point. `}
        <span class="swatch bar-requests" /> requests <span class="swatch bar-errors" /> errors (status ≥ 400){" "}
        <span class="swatch bar-limited" /> rate limited (429). Most in one point: {max}.
      </figcaption>
    </figure>
  );
}

/** The series as CSV (RFC 4180): a header line, then one line per point. */
export function seriesCsv(series: readonly UsagePoint[]): string {
  const lines = series.map((p) => `${p.start},${p.requests},${p.errors},${p.rate_limited}`);
  return `${["start,requests,errors,rate_limited", ...lines].join("\r\n")}\r\n`;
}
