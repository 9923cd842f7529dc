/**
 * catalog:generate in process, through `catalogGenerate.run` (the contract its door runs, without exiting):
 * the file it writes, what it says, its usage errors. The door (and that two runs write the same
 * bytes) is run as a subprocess in generate.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { catalogGenerate } from "../../src/node/catalog/build/generate-command";
import { generateProfiles } from "../../src/node/catalog/build/generator";
import { expectUsageError, runInProcess } from "./cli-in-process";

const root = mkdtempSync(path.join(tmpdir(), "catalog-generate-command-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = (...args: string[]) => runInProcess(catalogGenerate.run, args);

describe("catalog:generate", async () => {
  it("writes one generated profile per line, creating the directory, and says how many bytes", async () => {
    // 300 profiles are about 1.4 MB: written in more than one chunk.
    const out = path.join(root, "nested", "dir", "p.ndjson");
    const result = await run("--count", "300", "--seed", "4", "--out", out);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const bytes = statSync(out).size;
    expect(bytes).toBeGreaterThan(1 << 20);
    expect(result.stdout).toMatch(
      new RegExp(`^Generated 300 profiles \\(${bytes} bytes, seed 4\\) into ${out} in \\d+\\.\\d s\n$`),
    );
    const expected = [...generateProfiles(300, 4)].map((profile) => `${JSON.stringify(profile)}\n`).join("");
    expect(readFileSync(out, "utf8")).toBe(expected);
  });

  it("without --seed, uses seed 1", async () => {
    const out = path.join(root, "seed-1.ndjson");
    expect((await run("--count", "2", "--out", out)).stdout).toContain("seed 1)");
    expect(readFileSync(out, "utf8")).toBe([...generateProfiles(2, 1)].map((p) => `${JSON.stringify(p)}\n`).join(""));
  });

  it("--help prints the usage and writes nothing", async () => {
    const out = path.join(root, "help.ndjson");
    const result = await run("--help", "--count", "1", "--out", out);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: npm run catalog:generate -- --count N --out file.ndjson [--seed S]");
    expect(existsSync(out)).toBe(false);
  });

  it("--help wins over a usage error, as in every CLI", async () => {
    const result = await run("--size", "9", "--help");
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^Usage: npm run catalog:generate -- /);
  });

  it.each([
    [["--out", "x.ndjson"], "--count must be a whole number, got nothing"],
    [["--count", "1e3", "--out", "x.ndjson"], '--count must be a whole number, got "1e3"'],
    [["--count", "3", "--seed=-1", "--out", "x.ndjson"], '--seed must be a whole number, got "-1"'],
    [["--count", "3"], "--out is required"],
    [["--count", "3", "--out", "x.ndjson", "--size", "9"], "Unknown option '--size'"],
  ])("%j → exit 2, the problem and the usage, nothing written", async (args, message) => {
    expectUsageError(await run(...args), "catalog:generate", message);
    expect(existsSync("x.ndjson")).toBe(false);
  });

  it("a file it cannot write: exit 1 with one line naming why, no stack trace", async () => {
    const file = path.join(root, "a-file");
    writeFileSync(file, "");
    const result = await run("--count", "1", "--out", path.join(file, "p.ndjson"));
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toMatch(new RegExp(`^catalog:generate: E\\w+: .*${file}.*\n$`));
  });
});
