/**
 * A profile's five stages as a compact strip of five cells. Each cell says its state in text (a
 * mark and, for screen readers, the words), so the strip never depends on colour.
 */
import { STAGE_LABELS, type Profile, type StageName } from "../../common/catalog/schema";

const SHORT: Record<StageName, string> = { evaluate: "Ev", sign_up: "Su", pay: "Pa", provision: "Pr", operate: "Op" };
export const STATE_MARK = { ready: "✓", limited: "!" } as const;

export function StageStrip(props: { stages: Profile["stages"] }) {
  return (
    <ol class="stage-strip">
      {props.stages.map((stage) => (
        <li class={`stage-cell state-${stage.public_state}`} title={`${stage.stage_label}: ${stage.state_label}`}>
          <span aria-hidden="true">
            {SHORT[stage.stage]} {STATE_MARK[stage.public_state]}
          </span>
          <span class="visually-hidden">{`${STAGE_LABELS[stage.stage]}: ${stage.state_label}`}</span>
        </li>
      ))}
    </ol>
  );
}

/** The legend of the strip's marks, shown once above the results. */
export function StripLegend() {
  return (
    <p class="hint strip-legend">
      Stages: Ev evaluate, Su sign up, Pa pay, Pr provision, Op operate; {STATE_MARK.ready} ready, {STATE_MARK.limited}{" "}
      limited.
    </p>
  );
}

/** `2026-11-05T10:00:00.000Z` as `2026-11-05 10:00 UTC`. */
export const utcMinute = (instant: string) => `${instant.slice(0, 10)} ${instant.slice(11, 16)} UTC`;

/** The profile's primary stage in words: the first stage not ready, or none when every stage is ready (rule 4). */
export const firstNotReady = (profile: Profile) =>
  profile.primary_finding.public_state === "ready" ? "none, every stage is ready" : profile.primary_finding.stage_label;
