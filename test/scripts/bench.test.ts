/** Smoke check of `npm run bench -- --quick`: the harness runs end to end and writes its report. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
const root = mkdtempSync(path.join(tmpdir(), "catalog-bench-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("npm run bench -- --quick writes a report with the build figures as ratios to a floor", () => {
  const report = path.join(root, "report.md");
  const result = spawnSync("npm", ["run", "--silent", "bench", "--", "--quick", "--report", report, "--data-dir", path.join(root, "data")], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, PATH: `${path.join(repo, "node_modules/.bin")}:${process.env.PATH}` },
  });
  expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(result.status).toBe(0);
  expect(result.stdout).toMatch(/^build 5,000 profiles: [\d.]+ s = [\d.]+× floor \(target ≤ 2×; CPU [\d.]+× floor CPU\), peak RSS \d+ MiB$/m);
  expect(result.stdout).toMatch(/^build peak RSS across sizes: \d+ \/ \d+ MiB/m);
  const markdown = readFileSync(report, "utf8");
  expect(markdown).toContain("# Benchmark report (quick)");
  expect(markdown).toContain("| case | build (s) | floor (s) | build ÷ floor |");
  expect(markdown).toMatch(/\| 1,000 profiles \(\d+ MiB\) \| [\d.]+ \| [\d.]+ \| [\d.]+× \|/);
}, 240_000);
