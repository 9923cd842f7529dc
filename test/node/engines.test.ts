/**
 * package.json `engines` says the truth (no older Node than the dependencies accept), the pinned
 * Node 22 runs the scripts, and `npm install` on an older machine Node stays quiet (.npmrc).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(path.join(REPO, "package-lock.json"), "utf8")) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};

/** The lowest Node major a range admits: "^22.12.0 || >=26" → 22, ">=20" → 20. */
const lowestMajor = (range: string) =>
  Math.min(...range.split("||").map((part) => Number(/(\d+)/.exec(part)?.[1] ?? 0)));

describe("engines", () => {
  it("admits no Node older than every dependency accepts", () => {
    const floors = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== "" && entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
      .map(([name, entry]) => ({ name, major: lowestMajor((entry.engines as { node: string }).node) }));
    const strictest = Math.max(...floors.map((floor) => floor.major));
    expect(strictest).toBeGreaterThanOrEqual(22); // wrangler, miniflare and vitest need 22
    expect(lowestMajor(pkg.engines.node)).toBeGreaterThanOrEqual(strictest);
    expect((lock.packages[""]?.engines as { node: string } | undefined)?.node).toBe(pkg.engines.node);
  });

  it("the scripts and tests run on the pinned Node, which satisfies it", () => {
    expect(process.version).toBe(`v${pkg.devDependencies.node}`);
    expect(lowestMajor(pkg.engines.node)).toBeLessThanOrEqual(Number(pkg.devDependencies.node?.split(".")[0]));
  });

  it("npm install on the machine's own Node prints no warning", () => {
    // PATH without node_modules/.bin: npm runs on the machine's Node, as `npm install` does.
    const PATH = (process.env.PATH ?? "")
      .split(path.delimiter)
      .filter((dir) => !dir.includes("node_modules"))
      .join(path.delimiter);
    const run = spawnSync("npm", ["install", "--dry-run", "--no-audit", "--no-fund", "--ignore-scripts"], {
      cwd: REPO,
      env: { ...process.env, PATH },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const machineNode = spawnSync("node", ["--version"], {
      env: { ...process.env, PATH },
      encoding: "utf8",
    }).stdout.trim();
    expect(`${run.stdout}${run.stderr}`, `npm on Node ${machineNode}`).not.toMatch(/EBADENGINE|npm warn/i);
  }, 150_000);
});
