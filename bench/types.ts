/**
 * The benchmark's plug-in shape: each area (build, serve, client) is one module that measures its
 * figures *and* its floor in the same run, so a noisy machine still gives comparable ratios.
 * Register a module in bench/modules.ts.
 */
export interface BenchContext {
  /** Small sizes, few repetitions: the smoke check in the test suite (< 2 minutes). */
  quick: boolean;
  /** Scratch space for generated catalogs and builds (reused between runs). */
  dataDir: string;
  /** Progress for the person running the bench (stderr). */
  log: (line: string) => void;
  /** `--sizes`: the catalog sizes to measure instead of the module's own (the query module). */
  sizes?: number[];
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
