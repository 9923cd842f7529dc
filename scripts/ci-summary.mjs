// Prints the plain summary line CI reads ("N passed, N failed[, N skipped]") from vitest's JSON report.
import { readFileSync } from "node:fs";

const path = process.argv[2] ?? "test-results/vitest.json";
let report;
try {
  report = JSON.parse(readFileSync(path, "utf8"));
} catch (error) {
  console.error(`ci-summary: cannot read ${path}: ${error.message}`);
  process.exit(1);
}
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
// A file that failed outside any test (an import error, a failing beforeAll) counts as one failure.
const failedOutsideTests = (report.testResults ?? []).filter(
  (file) => file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed"),
).length;
const failed = report.numFailedTests + failedOutsideTests;
console.log(`${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || report.numPassedTests === 0 ? 1 : 0);
