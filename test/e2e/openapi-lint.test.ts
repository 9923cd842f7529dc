/**
 * /openapi.json, as the real worker serves it, passes `redocly lint` with the recommended ruleset
 * and no error (warnings are printed; today one: the document names no licence).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenApiTarget, type OpenApiTarget } from "./support/openapi-target";
import { REPO_ROOT } from "./support/wrangler-dev";

const REDOCLY = path.join(REPO_ROOT, "node_modules/@redocly/cli/bin/cli.js");
let target: OpenApiTarget;

beforeAll(async () => {
  target = await startOpenApiTarget();
});

afterAll(async () => {
  await target?.stop();
});

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { severity: string; ruleId: string; message: string }[];
}

describe("redocly lint --extends=recommended", () => {
  it("finds no error in /openapi.json", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
    try {
      const file = path.join(dir, "openapi.json");
      writeFileSync(file, JSON.stringify(target.document));
      const run = spawnSync(process.execPath, [REDOCLY, "lint", "--extends=recommended", "--format=json", file], {
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      });
      const report = JSON.parse(run.stdout) as LintReport;
      for (const problem of report.problems)
        console.log(`redocly ${problem.severity} ${problem.ruleId}: ${problem.message}`);
      expect(report.problems.filter((problem) => problem.severity === "error")).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
