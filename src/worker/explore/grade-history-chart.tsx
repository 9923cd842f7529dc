/**
 * A profile's grade over time, drawn by the server as inline SVG (no script): one point per
 * history entry, oldest on the left, A at the top; a removal breaks the line. The SVG is named by
 * its title and a text summary of every point, and the same data is the timeline table beside it.
 */
import { GRADES } from "../../common/catalog/schema";
import type { HistoryEntryView } from "../catalog/service/history";
import { Chart } from "./charts";

const WIDTH = 320;
const LEFT = 28;
const TOP = 10;
const STEP = 18;
const HEIGHT = TOP * 2 + STEP * (GRADES.length - 1);

const gradeY = (index: number) => TOP + index * STEP;

interface Point {
  x: number;
  y: number;
  entry: HistoryEntryView;
}

/** The runs of consecutive present entries (a `removed` entry ends a run), oldest first. */
function runsOf(entries: HistoryEntryView[]): Point[][] {
  const oldestFirst = [...entries].reverse();
  const span = WIDTH - LEFT - 12;
  const xOf = (i: number) => LEFT + 6 + (oldestFirst.length > 1 ? (i * span) / (oldestFirst.length - 1) : span / 2);
  const runs: Point[][] = [[]];
  oldestFirst.forEach((entry, i) => {
    const index = GRADES.indexOf(entry.grade as (typeof GRADES)[number]);
    if (entry.change === "removed" || index < 0) runs.push([]);
    else runs.at(-1)?.push({ x: Math.round(xOf(i)), y: gradeY(index), entry });
  });
  return runs.filter((run) => run.length > 0);
}

const summaryOf = (entries: HistoryEntryView[]) =>
  [...entries]
    .reverse()
    .map((e) => `${e.change === "removed" ? "removed" : e.grade} on ${e.event_at.slice(0, 10)}`)
    .join(", ");

export function GradeHistoryChart(props: { entries: HistoryEntryView[] }) {
  const runs = runsOf(props.entries);
  return (
    <Chart
      id="grade-history"
      title="Grade over time"
      summary={`Grade at each change, oldest first: ${summaryOf(props.entries)}.`}
      height={HEIGHT}
    >
      {GRADES.map((grade, i) => (
        <g>
          <text class="chart-label" x={0} y={gradeY(i) + 4}>
            {grade}
          </text>
          <line class="grid-line" x1={LEFT} x2={WIDTH} y1={gradeY(i)} y2={gradeY(i)} />
        </g>
      ))}
      {runs.map((run) => (
        <polyline class="grade-line" points={run.map((p) => `${p.x},${p.y}`).join(" ")} />
      ))}
      {runs.flat().map((p) => (
        <circle class="grade-point" cx={p.x} cy={p.y} r={4} data-grade={p.entry.grade} />
      ))}
    </Chart>
  );
}
