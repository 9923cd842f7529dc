/**
 * The codebase's rules (docs/architecture.md "Rules"), run by `npm test`: dependency-cruiser checks
 * what may import what (.dependency-cruiser.cjs), knip that no file, export or dependency is
 * unused (knip.json), Biome that every file is formatted and passes its lint rules (biome.jsonc).
 * A failure prints the tool's own report.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");
const CRUISED = ["src", "scripts", "bench", "packages/client/src", "packages/client/test", "test"];

function run(bin: string, args: string[]) {
  const result = spawnSync(process.execPath, [path.join(REPO, "node_modules", bin), ...args], {
    cwd: REPO,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, report: `${result.stdout}\n${result.stderr}` };
}

describe("boundaries", () => {
  it("dependency-cruiser finds no forbidden import, cycle or orphan", () => {
    const { status, report } = run("dependency-cruiser/bin/dependency-cruiser.mjs", CRUISED);
    expect(status, report).toBe(0);
    expect(report).toMatch(/no dependency violations found/);
  });

  it("knip finds no unused file, export or dependency", () => {
    const { status, report } = run("knip/bin/knip.js", ["--no-progress"]);
    expect(status, report).toBe(0);
  });

  it("Biome finds no unformatted file and no lint problem (npm run format fixes the format)", () => {
    const { status, report } = run("@biomejs/biome/bin/biome", ["check", "--colors=off", "."]);
    expect(status, report).toBe(0);
  });
});
