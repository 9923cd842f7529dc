/**
 * The time window of a usage report: `from`/`to`/`granularity` as sent, turned into whole hours or
 * days (docs/usage.md "Ranges"). `from` is rounded down and `to` up to the granularity, so each
 * series point is one whole hour or day; without them, the last 24 hours or 30 days up to the end
 * of the current one. A range over 31 days of hours or 400 days of days, or one that does not run
 * forwards, is a parameter error; every such error is listed with the others of the query.
 */
import { type Instant, instantParam } from "../http/instant";
import { invalidValueError, type ParameterError } from "../http/query-problem";
import { DAY_MS, HOUR_MS } from "./usage-tally";

export const GRANULARITIES = ["hour", "day"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

const STEP_MS: Record<Granularity, number> = { hour: HOUR_MS, day: DAY_MS };
const DEFAULT_POINTS: Record<Granularity, number> = { hour: 24, day: 30 };
/** 31 days of hours, 400 days of days: what the store keeps (usage-writes.ts). */
export const MAX_POINTS: Record<Granularity, number> = { hour: 31 * 24, day: 400 };

export interface UsageWindow {
  granularity: Granularity;
  /** The first point's start, epoch ms. */
  start: number;
  /** Where the last point ends (exclusive). */
  end: number;
  step: number;
}

export interface WindowInput {
  from?: Instant;
  to?: Instant;
  granularity: Granularity;
}

const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

/** The window the parameters name, or every reason they name none. */
export function usageWindow(input: WindowInput, now: number): UsageWindow | ParameterError[] {
  const { granularity } = input;
  const step = STEP_MS[granularity];
  const end = ceilTo(input.to?.ms ?? now + 1, step);
  const start = input.from ? floorTo(input.from.ms, step) : end - DEFAULT_POINTS[granularity] * step;
  if (input.from && input.to && input.from.ms >= input.to.ms)
    return [invalidValueError("from", `must be before to (${input.to.utcMillis})`)];
  const points = (end - start) / step;
  if (points <= 0) return [invalidValueError("from", `must be before to (${new Date(end).toISOString()})`)];
  if (points > MAX_POINTS[granularity])
    return [
      invalidValueError(
        input.from ? "from" : "to",
        `the range spans ${points} ${granularity}s; at most ${MAX_POINTS[granularity]} with granularity=${granularity} (${granularity === "hour" ? "31" : "400"} days)`,
      ),
    ];
  return { granularity, start, end, step };
}

/**
 * The window problems of a raw query whose other parameters failed: each of from, to and
 * granularity that is valid on its own is read, so that a range problem is listed beside theirs.
 */
export function windowErrorsOfRaw(raw: Record<string, string>, now: number): ParameterError[] {
  const instant = instantParam({ utcOnly: false });
  const from = raw.from === undefined ? undefined : instant.safeParse(raw.from);
  const to = raw.to === undefined ? undefined : instant.safeParse(raw.to);
  const granularity = raw.granularity ?? "hour";
  if (from?.success === false || to?.success === false) return [];
  if (!(GRANULARITIES as readonly string[]).includes(granularity)) return [];
  const window = usageWindow({ from: from?.data, to: to?.data, granularity: granularity as Granularity }, now);
  return Array.isArray(window) ? window : [];
}
