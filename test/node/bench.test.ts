/**
 * Smoke check of `npm run bench -- --smoke`: the harness runs end to end, every module at a few
 * hundred profiles, and prints every line of its report (the figures of such small runs mean nothing).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
const root = mkdtempSync(path.join(tmpdir(), "catalog-bench-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("npm run bench -- --smoke writes a report with the build, serve, client and sync figures", () => {
  const report = path.join(root, "report.md");
  const result = spawnSync(
    "npm",
    ["run", "--silent", "bench", "--", "--smoke", "--report", report, "--data-dir", path.join(root, "data")],
    {
      cwd: repo,
      encoding: "utf8",
      env: { ...process.env, PATH: `${path.join(repo, "node_modules/.bin")}:${process.env.PATH}` },
    },
  );
  expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(result.status).toBe(0);
  expect(result.stdout).toMatch(
    /^build [\d,]+ profiles: [\d.]+ s = [\d.]+× floor \(target ≤ 2×; CPU [\d.]+× floor CPU\), peak RSS \d+ MiB$/m,
  );
  expect(result.stdout).toMatch(/^build peak RSS across sizes: \d+ \/ \d+ MiB/m);
  expect(result.stdout).toMatch(
    /^serve authenticated part: \d+ req\/s = [\d.]+× bare worker \(target ≥ 0\.6×\), p50 [\d.]+ ms/m,
  );
  expect(result.stdout).toMatch(
    /^serve usage counting: [\d.]+× the req\/s without it \(target ≥ 0\.95×; \d+ → \d+ req\/s/m,
  );
  expect(result.stdout).toMatch(
    /^serve rate limiter: -?[\d.]+ ms server time per request with leases, -?[\d.]+ ms with one RPC per request/m,
  );
  // The SubjectGuard 50 and 150 ms away (bench/workers/far-guard.ts), with leases and with one RPC per request.
  expect(result.stdout).toMatch(
    /^serve far SubjectGuard \(local \/ 50 \/ 150 ms away\), leases: p50 [\d.]+ \/ [\d.]+ \/ [\d.]+ ms \([−+][\d.]+ ms at 150 ms, paired by round\), p99 [\d.]+ \/ [\d.]+ \/ [\d.]+ ms/m,
  );
  expect(result.stdout).toMatch(/^serve far SubjectGuard \(local \/ 50 \/ 150 ms away\), one RPC per request: p50 /m);
  expect(result.stdout).toMatch(
    /^serve profile lookup \(target ≤ 1\.5× a manifest request\): [\d,]+ profiles \d+ req\/s, p50 [\d.]+ ms = [\d.]+× \(by id [\d.]+×.*; [\d,]+ profiles \d+ req\/s/m,
  );
  expect(result.stdout).toMatch(/^serve \/v1\/catalog TTFB: [\d,]+ profiles [\d.]+ ms, [\d,]+ profiles [\d.]+ ms/m);
  expect(result.stdout).toMatch(
    /^serve workerd RSS streaming [\d,]+ profiles once: [\d.]+ → peak [\d.]+ → [\d.]+ MiB/m,
  );
  expect(result.stdout).toMatch(
    /^client catalog:pull [\d,]+ profiles: \d+ MB\/s \(target ≥ 100\) = [\d.]+× floor time, peak RSS \d+ MiB$/m,
  );
  expect(result.stdout).toMatch(
    /^d1load [\d,]+: [\d.]+ s; in batch [\d.]+ s, prepare\/bind [\d.]+ s; SQLite in process [\d.]+ s, Node alone [\d.]+ s$/m,
  );
  const markdown = readFileSync(report, "utf8");
  expect(markdown).toContain("# Benchmark report (smoke)");
  expect(markdown).toContain("| case | build (s) | floor (s) | build ÷ floor |");
  expect(markdown).toMatch(
    /\| [\d,]+ profiles \(\d+ MiB\) \| [\d.]+ \| [\d.]+ \| [\d.]+× \| [\d.]+× \| \d+\.\d\d · \d+\.\d\d · \d+\.\d\d \|/,
  );
  expect(markdown).toMatch(/\| bare Hono worker: GET \/ → "ok" \(floor\) \| \d+ \| [\d.]+ \| [\d.]+ \| 1\.00× \|/);
  expect(markdown).toMatch(
    /\| GET \/v1\/profiles\/\{id\}, [\d,]+ profiles \(\d[\d,]* different\) \| \d+ \| [\d.]+ \| [\d.]+ \| [\d.]+× \| {2}\| [\d.]+× \|/,
  );
  expect(markdown).toContain("| case | pull (s) | pull MB/s | floor (s) | pull ÷ floor |");
  expect(result.stdout).toMatch(
    /^sync [\d,]+ profiles, 1 % retested: fetched [\d.]+ % of the document \(target ≤ 3 %\), [\d.]+× a full pull .*byte-identical$/m,
  );
  expect(markdown).toContain(
    "| case | profiles fetched | bytes fetched | of the document | sync (s) | full pull (s) |",
  );
  expect(markdown).toMatch(
    /\| GET \/v1\/catalog\/parts\/1 \(16 KiB part\), bench worker, leases, SubjectGuard 150 ms away \| \d+ \|/,
  );
  // The report shows the modules in report order, whatever order they ran in (bench/modules.ts).
  expect([...markdown.matchAll(/^## (.+)$/gm)].map((heading) => heading[1])).toEqual([
    "Build",
    "Serve",
    "Queries (GET /v1/profiles on D1, under wrangler dev)",
    "History (D1, under wrangler dev)",
    "Watches at publish (local D1)",
    "D1 load (publish's query tables)",
    "Client",
    "Sync",
  ]);
  // Three wrangler dev starts make most of it.
}, 600_000);
