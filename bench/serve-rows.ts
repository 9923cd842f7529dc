/** Formatting shared by the serve benchmark's rows (serve.ts, serve-lookup.ts). */
import type { RoundedLoad } from "./load";
import type { BenchRow } from "./types";

export const ms = (value: number) => value.toFixed(2);
export const mib = (bytes: number) => (bytes / 1048576).toFixed(1);
export const count = (n: number) => n.toLocaleString("en");
/** A signed difference in ms, with a true minus sign. */
export const signed = (value: number) => `${value < 0 ? "−" : "+"}${ms(Math.abs(value))}`;
export const times = (ratio: number) => `${ratio.toFixed(2)}×`;

/** A load with the usage counter, and its req/s over the same route's without it (target ≥ 0.95). */
export function usageRow(label: string, withUsage: RoundedLoad, without: RoundedLoad): BenchRow {
  const ratio = withUsage.requestsPerSecond / without.requestsPerSecond;
  return { ...loadRow(label, withUsage), "req/s ÷ without usage": ratio.toFixed(3) };
}

export function loadRow(label: string, result: RoundedLoad): BenchRow {
  return {
    case: label,
    "req/s": Math.round(result.requestsPerSecond),
    "p50 (ms)": ms(result.p50Ms),
    "p99 (ms)": ms(result.p99Ms),
    "req/s ÷ bare worker": times(result.ratioToFloor),
  };
}
