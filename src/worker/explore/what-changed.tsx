/**
 * The "What changed" page (docs/explorer.md): the summary of two releases the history knows (by
 * default the latest publish against the release before it) as tables: added, removed and changed
 * counts, and each rated field's `old→new` transitions. Each count links to the list of the
 * profiles it counts (changed-profiles.tsx); a GET form chooses another pair.
 */
import type { HistoryEventView } from "../catalog/service/history-pair";
import type { ChangesSummaryView } from "../catalog/service/summary";
import { changesHref, type ReleasePairIds } from "./changes-links";
import { CHANGE_KINDS } from "./changes-params";
import { EXPLORE_PATHS } from "./paths";
import { utcMinute } from "../views/stage-strip";

/** The releases the form offers, newest event first, each once; the pair shown is always among them. */
function releaseOptions(events: HistoryEventView[], pair: ReleasePairIds) {
  const options = new Map<string, string>();
  for (const event of events)
    if (!options.has(event.release_id))
      options.set(event.release_id, `${event.release_id.slice(0, 19)}… (${event.event}, ${utcMinute(event.at)})`);
  for (const id of [pair.release, pair.since]) if (!options.has(id)) options.set(id, id);
  return [...options];
}

function PairForm(props: { events: HistoryEventView[]; pair: ReleasePairIds }) {
  const options = releaseOptions(props.events, props.pair);
  const select = (name: "release" | "since", label: string) => (
    <>
      <label for={`pair-${name}`}>{label}</label>
      <select id={`pair-${name}`} name={name}>
        {options.map(([id, text]) => (
          <option value={id} selected={id === props.pair[name]}>
            {text}
          </option>
        ))}
      </select>
    </>
  );
  return (
    <form method="get" class="filters pair-form">
      {select("release", "Newer release")}
      {select("since", "Compared with (older release)")}
      <p>
        <button type="submit">Compare</button>
      </p>
    </form>
  );
}

function Counts(props: { summary: ChangesSummaryView; pair: ReleasePairIds }) {
  return (
    <table class="changes-counts">
      <caption>Profiles that differ</caption>
      <thead>
        <tr>
          <th scope="col">Change</th>
          <th scope="col">Profiles</th>
        </tr>
      </thead>
      <tbody>
        {CHANGE_KINDS.map((change) => (
          <tr>
            <th scope="row">{change}</th>
            <td>
              <a href={changesHref(props.pair, { change })}>{String(props.summary[change])}</a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Transitions(props: { summary: ChangesSummaryView; pair: ReleasePairIds }) {
  const fields = Object.entries(props.summary.transitions).filter(([, counts]) => Object.keys(counts).length > 0);
  if (fields.length === 0) return <p>No rated field changed value (grade, outcome, state, primary stage, stages).</p>;
  return (
    <div class="transition-tables">
      {fields.map(([field, counts]) => (
        <table class="transitions">
          <caption>
            <code>{field}</code>
          </caption>
          <thead>
            <tr>
              <th scope="col">From → to</th>
              <th scope="col">Profiles</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(counts).map(([transition, n]) => (
              <tr>
                <th scope="row">{transition}</th>
                <td>
                  <a href={changesHref(props.pair, { change: "changed", field, transition })}>{String(n)}</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </div>
  );
}

export function WhatChangedView(props: {
  summary: ChangesSummaryView | null;
  pair: ReleasePairIds;
  events: HistoryEventView[];
}) {
  const { summary, pair } = props;
  return (
    <>
      <p>
        <a href={EXPLORE_PATHS.home}>Back to the explorer</a>
      </p>
      <h1>What changed</h1>
      <p class="lead release-line">
        Release <code>{pair.release}</code>
        {summary ? (
          <>
            {" "}
            compared with <code>{pair.since}</code>.
          </>
        ) : (
          " was the first publish of this deployment's history: there is nothing before it to compare with."
        )}
      </p>
      {summary ? (
        <>
          <Counts summary={summary} pair={pair} />
          <h2>Transitions of the changed profiles</h2>
          <p class="hint">Counted over profiles present in both releases whose value differs.</p>
          <Transitions summary={summary} pair={pair} />
        </>
      ) : null}
      <h2>Compare another pair</h2>
      <PairForm events={props.events} pair={pair} />
    </>
  );
}
