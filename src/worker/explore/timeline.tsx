/**
 * A profile's history on its explorer page (docs/explorer.md, "Timeline"): the grade over time as
 * a small SVG and, for every publish or rollback that changed the profile, newest first, its date,
 * release, the change, the grade and the five stage states then, and which rated fields moved.
 */
import { STAGE_LABELS, STAGES } from "../../common/catalog/schema";
import type { HistoryEntryView } from "../catalog/service/history";
import { GradeHistoryChart } from "./grade-history-chart";
import { ScrollTable } from "./scroll-table";
import { STATE_MARK, utcMinute } from "../views/stage-strip";

const COLUMNS = [
  "When",
  "Release",
  "Event",
  "Change",
  "Grade",
  ...STAGES.map((stage) => STAGE_LABELS[stage]),
  "Fields changed",
];

const CHANGE_WORDS = { added: "added", changed: "changed", removed: "removed" } as const;

const stateText = (state: string | undefined) =>
  `${STATE_MARK[state as keyof typeof STATE_MARK] ?? ""} ${state ?? "unknown"}`.trim();

function fieldsText(entry: HistoryEntryView) {
  if (entry.change !== "changed") return "—";
  return entry.fields_changed.length ? entry.fields_changed.join(", ") : "none rated (other bytes)";
}

function EntryRow(props: { entry: HistoryEntryView }) {
  const { entry } = props;
  return (
    <tr class={`change-${entry.change}`}>
      <td>
        <time datetime={entry.event_at}>{utcMinute(entry.event_at)}</time>
      </td>
      <td>
        <code class="release-id">{entry.release_id}</code>
      </td>
      <td>{entry.event}</td>
      <td>{CHANGE_WORDS[entry.change]}</td>
      <td class="grade">{entry.grade}</td>
      {STAGES.map((stage) => (
        <td class={`state-${entry.stages[stage]}`}>{stateText(entry.stages[stage])}</td>
      ))}
      <td>{fieldsText(entry)}</td>
    </tr>
  );
}

export function Timeline(props: { entries: HistoryEntryView[]; more: boolean }) {
  if (props.entries.length === 0) return <p>No history is recorded for this profile yet.</p>;
  return (
    <>
      <GradeHistoryChart entries={props.entries} />
      <p id="timeline-summary">
        {props.entries.length} change(s), newest first{props.more ? " (the most recent ones; the API lists all)" : ""}.
        For a removal the grade and states are the last ones the profile had.
      </p>
      <ScrollTable class="timeline" labelledBy="timeline-summary" columns={COLUMNS}>
        {props.entries.map((entry) => (
          <EntryRow entry={entry} />
        ))}
      </ScrollTable>
    </>
  );
}
