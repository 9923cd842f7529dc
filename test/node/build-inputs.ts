/** Build inputs for the catalog:build tests, written under a temporary directory of the test's. */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { expect } from "vitest";
import path from "node:path";

/**
 * A function that makes a new directory under `root` (`in-dir-0`, `in-dir-1`…) holding the given
 * files; values are written as pretty JSON, strings as they are.
 */
export function inputDirs(root: string): (files: Record<string, unknown>) => string {
  let n = 0;
  return (files) => {
    const dir = path.join(root, `in-dir-${n++}`);
    mkdirSync(dir);
    for (const [name, content] of Object.entries(files))
      writeFileSync(
        path.join(dir, name),
        typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`,
      );
    return dir;
  };
}

/** A build of bad input's answer: exit 1, no stack trace, nothing at `out` nor a temporary directory in `root`; its stderr. */
export function refusedCleanly(result: { code: number | null; stderr: string }, out: string, root: string): string {
  expect(result.code).toBe(1);
  expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack frames
  expect(existsSync(out)).toBe(false);
  expect(readdirSync(root).filter((f) => f.startsWith(".catalog-build-"))).toEqual([]);
  return result.stderr;
}
