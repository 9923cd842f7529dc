/**
 * Every relative link in README.md, CONTRIBUTING.md and docs/*.md must reach an existing file, and every `#anchor`
 * (in the page or `file.md#anchor`) a heading of its target, named as GitHub names it. Every
 * repository path a page names in code (`src/worker/index.ts`) must exist, so a moved file cannot
 * leave the docs pointing at nothing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { githubSlug, headingAnchors, markdownLinks, namedRepoPaths } from "./markdown-links";

const root = path.resolve(import.meta.dirname, "../..");
const docsDir = path.join(root, "docs");
const pages = [
  "README.md",
  "CONTRIBUTING.md",
  ...readdirSync(docsDir)
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

function brokenLinks(page: string): string[] {
  const file = path.join(root, page);
  const broken: string[] = [];
  for (const { target, line } of markdownLinks(readFileSync(file, "utf8"))) {
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) continue; // absolute URL: not this repository's
    const [pathPart, anchor] = splitAnchor(target);
    const resolved = pathPart === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
    if (!existsSync(resolved)) {
      broken.push(`${page}:${line}: ${target}: no file ${path.relative(root, resolved)}`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith(".md") || statSync(resolved).isDirectory()) {
      broken.push(`${page}:${line}: ${target}: an anchor into a file that is not Markdown`);
    } else if (!headingAnchors(readFileSync(resolved, "utf8")).has(anchor)) {
      broken.push(`${page}:${line}: ${target}: no heading #${anchor} in ${path.relative(root, resolved)}`);
    }
  }
  return broken;
}

/** Written by a command, never committed. */
const GENERATED = /^(bench\/out|test-results|packages\/client\/dist)\//;

function missingPaths(page: string): string[] {
  return namedRepoPaths(readFileSync(path.join(root, page), "utf8"))
    .filter(({ target }) => !GENERATED.test(target) && !existsSync(path.join(root, target)))
    .map(({ target, line }) => `${page}:${line}: \`${target}\` does not exist`);
}

function splitAnchor(target: string): [string, string | undefined] {
  const hash = target.indexOf("#");
  return hash < 0 ? [target, undefined] : [target.slice(0, hash), target.slice(hash + 1)];
}

describe("links in README.md and docs/", () => {
  it.each(pages)("%s: every relative link and anchor resolves", (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it.each(pages)("%s: every repository path it names exists", (page) => {
    expect(missingPaths(page)).toEqual([]);
  });

  it("finds the links and headings it checks (GitHub's slug rules)", () => {
    const text =
      "# OAuth 2.0\n## `npm run catalog:build`\n## Café & co\n## Café & co\n```sh\n# not a heading [x](nowhere.md)\n```\nSee [a](other.md#b) and `[c](d.md)`.\n";
    expect([...headingAnchors(text)]).toEqual(["oauth-20", "npm-run-catalogbuild", "café--co", "café--co-1"]);
    expect(markdownLinks(text).map((link) => link.target)).toEqual(["other.md#b"]);
    expect(githubSlug("1. Log in")).toBe("1-log-in");
    const paths =
      "Run `npm test` over `src/worker/index.ts`, `test/worker/x.{a,b}.test.ts` and `scripts/<name>.ts`; not src/a.ts.\n```\n`src/b.ts`\n```\n";
    expect(namedRepoPaths(paths).map((named) => named.target)).toEqual(["src/worker/index.ts"]);
  });
});
