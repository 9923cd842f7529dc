/**
 * No comment names a repository path that does not exist: when a file moves, the comments that
 * point at it move too (docs-links.test.ts does the same for README.md and docs/).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** Written by a command, never committed. */
const GENERATED = /^(bench\/out|test-results|packages\/client\/dist|node_modules)\//;
const CODE = /\.(ts|tsx|mts|mjs|cjs|jsonc)$/;
const HASH_COMMENTS = /(^|\/)(\.gitignore|\.npmrc|run|[\w-]+\.toml)$/;
const REPO_PATH = /(?<![\w./@-])(?:src|scripts|test|bench|packages|data|docs|static)\/[\w./{}*<>-]*/g;

/** The comments of a file: `//` and `/* … *\/` in code, `#` in TOML, shell and ignore files. */
function commentsOf(file: string, text: string): string[] {
  if (CODE.test(file)) return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/[^\n]*/g)].map(([c]) => c);
  if (HASH_COMMENTS.test(file)) return [...text.matchAll(/(?:^|\s)#[^\n]*/g)].map(([c]) => c);
  return [];
}

/** The paths a comment names, without globs or placeholders, as the repository spells them. */
function namedPaths(comment: string): string[] {
  return [...comment.matchAll(REPO_PATH)]
    .map(([candidate]) => candidate.replace(/[.,:;)]+$/, ""))
    .filter((candidate) => !/[{}*<>]/.test(candidate) && !GENERATED.test(candidate));
}

const exists = (target: string) =>
  ["", ".ts", ".tsx", ".mjs"].some((extension) => existsSync(path.join(root, target + extension)));

describe("paths named in comments", () => {
  it("finds the paths in each kind of comment, and not in strings or URLs", () => {
    expect(namedPaths("// see src/worker/index.ts, and test/node/x.{a,b}.test.ts.")).toEqual(["src/worker/index.ts"]);
    expect(commentsOf("a.ts", 'const u = "https://x.test/src/gone.ts"; // src/worker\n/* bench/run.ts */')).toEqual([
      "// src/worker",
      "/* bench/run.ts */",
    ]);
    expect(commentsOf("wrangler.toml", 'main = "src/x.ts" # src/y.ts')).toEqual([" # src/y.ts"]);
  });

  it("every path a comment names exists", () => {
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
    const missing = files
      .filter((file) => existsSync(path.join(root, file)))
      .flatMap((file) =>
        commentsOf(file, readFileSync(path.join(root, file), "utf8"))
          .flatMap(namedPaths)
          .filter((target) => !exists(target))
          .map((target) => `${file}: ${target}`),
      );
    expect(missing).toEqual([]);
  });
});
