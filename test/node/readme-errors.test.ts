import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROBLEM_TYPES } from "../../src/worker/http/problem-types";

const README = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
const errorsSection = README.slice(
  README.indexOf("\n## Errors\n"),
  README.indexOf("\n## ", README.indexOf("\n## Errors\n") + 1),
);

describe("README ## Errors", () => {
  it.each(Object.entries(PROBLEM_TYPES))("documents %s with its status", (code, { status }) => {
    const row = errorsSection
      .split("\n")
      .find((line) => line.startsWith(`| ${status} |`) && line.includes(`\`${code}\``));
    expect(row, `no row "| ${status} | … \`${code}\` …" in README's Errors section`).toBeDefined();
  });
});
