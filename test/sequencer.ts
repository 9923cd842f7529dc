/**
 * The order `npm test` starts its files in. Vitest's own order, on a fresh clone with no results
 * cache, is project by project and the largest file first, so the long `node` files started after
 * every `e2e` file and the suite ended with one long file running alone. Here the longest file goes
 * first, by its time in a recent run (test/file-durations.json; a file not listed counts as its
 * project's median), and the files of a project that shares one runner between files (`node` and
 * `worker`, `isolate: false`) come last and together: vitest keeps such a runner (for `worker`, its
 * workerd) only while the next file in line is one of the same project's.
 *
 * After a full run, `node scripts/test-durations.mjs` writes the list again from vitest's report.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const listed: Record<string, number> = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "file-durations.json"), "utf8"),
);

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const known = (spec: TestSpecification) => listed[path.relative(root, spec.moduleId)];
    const medians = new Map<string, number>();
    for (const spec of files) {
      const name = spec.project.name;
      if (medians.has(name)) continue;
      const times = files
        .filter((other) => other.project.name === name)
        .map(known)
        .filter((seconds) => seconds !== undefined)
        .sort((a, b) => a - b);
      medians.set(name, times[Math.floor(times.length / 2)] ?? 0);
    }
    const seconds = (spec: TestSpecification) => known(spec) ?? medians.get(spec.project.name) ?? 0;
    const sharesRunner = (spec: TestSpecification) => (spec.project.config.isolate === false ? 1 : 0);
    return [...files].sort(
      (a, b) =>
        sharesRunner(a) - sharesRunner(b) ||
        (sharesRunner(a) ? a.project.name.localeCompare(b.project.name) : 0) ||
        seconds(b) - seconds(a),
    );
  }
}
