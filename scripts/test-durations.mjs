#!/usr/bin/env node
// Writes test/file-durations.json (each test file's seconds in the last run, from vitest's JSON
// report test-results/vitest.json), the order test/sequencer.ts starts the files of `npm test` in.
// Run it after a full `npm test`, ideally one of CI's: node scripts/test-durations.mjs
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const report = JSON.parse(readFileSync(path.join(root, "test-results/vitest.json"), "utf8"));
// The report names files by absolute path: relative to the checkout that ran them (their common
// folder, as they lie under test/ and packages/), which may be another clone than this one.
const names = report.testResults.map((file) => file.name);
let ran = path.dirname(names[0]);
while (!names.every((name) => name.startsWith(`${ran}/`))) ran = path.dirname(ran);
const seconds = Object.fromEntries(
  report.testResults
    .map((file) => [path.relative(ran, file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(path.join(root, "test/file-durations.json"), `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`test/file-durations.json: ${Object.keys(seconds).length} files`);
