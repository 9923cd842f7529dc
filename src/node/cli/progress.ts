/**
 * Progress of a long command on stderr, the same way for every command (build, publish, rollback,
 * pull), through cli-progress:
 * - on a terminal, a live bar: `upload parts |████░░░░| 40% | 4/10 parts | 3.1 parts/s | ETA 2 s`;
 * - anywhere else (CI, a log file, a pipe), cli-progress's scheduled plain output: one line when a
 *   step starts, one every 5 s, and one when it ends:
 *   `validate: 12.0 MiB/98.4 MiB (12%), 24.0 MiB/s, ETA 4 s, 2,310 profiles`.
 * Sizes are in binary units, rates are averages since the step started, the ETA follows from them.
 * The one progress module: a command that runs in steps (the build's validate, write and hash;
 * publish's upload and verify) reports through `stepProgress`, a single transfer through
 * `startProgress`.
 */
import { SingleBar, type Params } from "cli-progress";

export type ProgressUnit = "bytes" | "parts" | "profiles" | "batches";

export interface Progress {
  /** `note` is shown after the numbers, e.g. "2,310 profiles". */
  update(done: number, note?: string): void;
  stop(): void;
}

export interface ProgressOptions {
  stream?: NodeJS.WriteStream;
  /** Off a terminal: how often a line is printed. */
  intervalMs?: number;
}

export const PLAIN_INTERVAL_MS = 5_000;
const BAR_WIDTH = 24;
const BAR_COMPLETE = "█";
const BAR_INCOMPLETE = "░";

const count = (n: number) => Math.round(n).toLocaleString("en-US");

export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit]}`;
}

export function formatSeconds(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const amountOf = (unit: ProgressUnit, done: number, total: number) =>
  unit === "bytes" ? `${formatBytes(done)}/${formatBytes(total)}` : `${count(done)}/${count(total)} ${unit}`;
const rateOf = (unit: ProgressUnit, perSecond: number) =>
  unit === "bytes"
    ? `${formatBytes(perSecond)}/s`
    : `${perSecond < 10 ? perSecond.toFixed(1) : count(perSecond)} ${unit}/s`;

/** The numbers after the label, shared by the bar and the plain line. */
function figures(
  unit: ProgressUnit,
  params: Params,
): { amount: string; percent: number; rate?: string; time?: string } {
  const done = Math.min(params.value, params.total);
  const elapsed = ((params.stopTime ?? Date.now()) - params.startTime) / 1000;
  const percent = params.total > 0 ? Math.floor((100 * done) / params.total) : 100;
  const amount = amountOf(unit, done, params.total);
  if (elapsed < 0.05 || done === 0) return { amount, percent };
  const perSecond = done / elapsed;
  const time =
    done >= params.total ? `in ${formatSeconds(elapsed)}` : `ETA ${formatSeconds((params.total - done) / perSecond)}`;
  return { amount, percent, rate: rateOf(unit, perSecond), time };
}

/** Starts reporting a step of `total` units; call `stop()` when it ends (or fails). */
export function startProgress(
  label: string,
  unit: ProgressUnit,
  total: number,
  options: ProgressOptions = {},
): Progress {
  const stream = options.stream ?? process.stderr;
  const terminal = stream.isTTY === true;
  const bar = new SingleBar({
    stream,
    noTTYOutput: true,
    notTTYSchedule: options.intervalMs ?? PLAIN_INTERVAL_MS,
    hideCursor: true,
    // Off a terminal each render already ends its line; on one, the finished bar stays on screen.
    clearOnComplete: !terminal,
    barsize: BAR_WIDTH,
    barCompleteChar: BAR_COMPLETE,
    barIncompleteChar: BAR_INCOMPLETE,
    format: (_options, params, payload: { note?: string }) => {
      const { amount, percent, rate, time } = figures(unit, params);
      const extras = [rate, time, payload.note].filter(Boolean) as string[];
      if (!terminal) return `${label}: ${amount} (${percent}%)${extras.map((extra) => `, ${extra}`).join("")}`;
      const filled = Math.round((BAR_WIDTH * percent) / 100);
      const drawn = `${BAR_COMPLETE.repeat(BAR_WIDTH).slice(0, filled)}${BAR_INCOMPLETE.repeat(BAR_WIDTH).slice(0, BAR_WIDTH - filled)}`;
      return [`${label} |${drawn}| ${percent}%`, amount, ...extras].join(" | ");
    },
  });
  bar.start(total, 0, { note: undefined });
  return {
    update: (done, note) => bar.update(done, { note }),
    stop: () => bar.stop(),
  };
}

/** One step of a command that runs in steps: what its bar is called and what it counts. */
export interface Step {
  label: string;
  unit: ProgressUnit;
}

/**
 * Progress of a command that runs in steps, one bar (or plain line) per step: when the step
 * changes, the previous one is shown complete and stopped (its last events are coarse) and the
 * next one starts. Labels may be padded to line up the bars; off a terminal they are trimmed.
 */
export function stepProgress(stream: NodeJS.WriteStream = process.stderr) {
  let current: { step: string; bar: Progress; total: number; note?: string } | undefined;
  const stop = () => {
    current?.bar.stop();
    current = undefined;
  };
  return {
    show(step: string, { label, unit }: Step, done: number, total: number, note?: string): void {
      if (current?.step !== step) {
        current?.bar.update(current.total, current.note);
        stop();
        current = { step, bar: startProgress(stream.isTTY ? label : label.trim(), unit, total, { stream }), total };
      }
      current.note = note;
      current.bar.update(done, note);
    },
    stop,
  };
}
