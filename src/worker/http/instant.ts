/**
 * The one date-and-time parser of query parameters (`tested_after`, `created[gte]`, …): an RFC 3339
 * §5.6 date-time, checked against the calendar (no 30 February, no hour 24, no leap second) instead
 * of being rolled over into the next valid instant, and kept at its full precision: stored times
 * have whole milliseconds, so a bound finer than that compares strictly rather than being rounded
 * (rounding 9999-12-31T23:59:59.9999Z up would leave year 9999).
 */
import { z } from "@hono/zod-openapi";

export interface Instant {
  /** The whole millisecond at or just before the instant, since the epoch. */
  ms: number;
  /** That millisecond as stored times are written: `2026-11-20T12:34:56.789Z`. */
  utcMillis: string;
  /** The instant lies a fraction of a millisecond after `ms` (more than 3 fractional digits). */
  pastMillis: boolean;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysIn = (year: number, month: number) =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/** Why the fields name no instant (RFC 3339 §5.7), or null when they do. */
function impossibility(year: number, month: number, day: number, [hour, minute, second]: number[]): string | null {
  const monthName = MONTHS[month - 1];
  if (monthName === undefined) return `there is no month ${month}`;
  if (day < 1 || day > daysIn(year, month)) return `${monthName} ${year} has ${daysIn(year, month)} days`;
  if ((hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 59) return "the time of day is out of range";
  return null;
}

function offsetMinutes(zone: string): number | null {
  if (zone === "Z") return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 23 || minutes > 59) return null;
  return (zone.startsWith("-") ? -1 : 1) * (hours * 60 + minutes);
}

/** The instant the text names, or why it names none. */
function parseInstant(text: string, options: { utcOnly: boolean }): Instant | string {
  const malformed = options.utcOnly
    ? "must be an ISO 8601 UTC instant, e.g. 2026-11-01T00:00:00Z"
    : "must be an RFC 3339 date and time, e.g. 2026-11-01T00:00:00Z";
  const match = DATE_TIME.exec(text);
  const zone = match?.[8];
  if (!match || zone === undefined || (options.utcOnly && zone !== "Z")) return malformed;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    ...number[],
  ];
  const why = impossibility(year, month, day, [hour, minute, second] as number[]);
  const offset = offsetMinutes(zone);
  if (why || offset === null) return `is not a real date and time: ${why ?? "the offset is out of range"}`;
  const fraction = match[7] ?? "";
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour ?? 0, (minute ?? 0) - offset, second ?? 0, Number(fraction.slice(0, 3).padEnd(3, "0")));
  const ms = at.getTime();
  return { ms, utcMillis: at.toISOString(), pastMillis: /[1-9]/.test(fraction.slice(3)) };
}

/** A query parameter holding one instant (given once), parsed by parseInstant. */
export const instantParam = (options: { utcOnly: boolean }) =>
  z.string({ error: "must be given once" }).transform((text, ctx): Instant => {
    const instant = parseInstant(text, options);
    if (typeof instant === "string") {
      ctx.addIssue({ code: "custom", message: instant });
      return z.NEVER;
    }
    return instant;
  });

/** The first whole millisecond at or after the instant: `stored >= it` ⇔ `stored >= instant`, and `<` alike. */
export const firstMillisAtOrAfter = (instant: Instant) => instant.ms + (instant.pastMillis ? 1 : 0);

/** SQL comparisons of a column of `utcMillis` texts with the instant, exact at any precision. */
export const atOrAfterOperator = (instant: Instant) => (instant.pastMillis ? ">" : ">=");
export const beforeOperator = (instant: Instant) => (instant.pastMillis ? "<=" : "<");
