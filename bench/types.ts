/**
 * The benchmark's plug-in shape: each area (build, serve, client) is one module that measures its
 * figures *and* its floor in the same run, so a noisy machine still gives comparable ratios.
 * Register a module in bench/modules.ts.
 */
import type { BenchRig } from "./bench-rig";

/**
 * How much to measure: `full` for the figures in docs/performance.md; `quick` small sizes and few
 * runs, to compare a change; `smoke` the least that still runs every module and prints every
 * report line, for the test suite (its figures mean nothing: loads of a few requests).
 */
export type BenchPlan = "full" | "quick" | "smoke";

export interface BenchContext {
  plan: BenchPlan;
  /** The persisted state and the `wrangler dev` servers the modules share (bench-rig.ts). */
  rig: BenchRig;
  /** Profile counts to measure instead of the module's own (`--sizes`; modules that take sizes). */
  sizes?: number[];
  /** Scratch space for generated catalogs and builds (reused between runs). */
  dataDir: string;
  /** Progress for the person running the bench (stderr). */
  log: (line: string) => void;
}

export interface BenchRow {
  /** What was measured, e.g. "100,000 profiles (516 MB)". */
  case: string;
  [column: string]: string | number;
}

export interface BenchSection {
  title: string;
  /** A paragraph: what is measured, what the floor is, the targets. */
  method: string;
  columns: string[];
  rows: BenchRow[];
  /** One-line results for stdout, e.g. "build 100k: 1.42× floor, peak RSS 297 MiB (flat: 1.3×)". */
  summary: string[];
}

export interface BenchModule {
  name: string;
  run(context: BenchContext): Promise<BenchSection>;
}
