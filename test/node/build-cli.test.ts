/**
 * `npm run catalog:build` as a user meets it (a subprocess): exit codes, the report on bad input
 * (file, line/column, profile id, path, rule, expected vs found), never a stack trace, and nothing
 * written under --out when the input is bad.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { packageCommand } from "../../bench/measure";
import { buildFailureMessage } from "../../src/node/catalog/build/build-failure";
import { generateProfiles } from "../../src/node/catalog/build/generator";
import { inputDirs, refusedCleanly } from "./build-inputs";
import { allPassProfile, PROFILES_DIR } from "./profile-fixtures";
import { expectDefined } from "../../src/common/expect";

const repo = path.resolve(import.meta.dirname, "../..");
const root = mkdtempSync(path.join(tmpdir(), "catalog-cli-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
// Exactly as `npm run catalog:build` runs it (package.json's command, with the pinned Node 22), from another directory.
const NODE = path.join(repo, "node_modules/.bin/node");
// Its script paths and --import modules resolve from the repository, as under npm run; these tests run elsewhere.
const fromRepo = createRequire(path.join(repo, "package.json"));
const COMMAND = packageCommand("catalog:build").map((arg, i, all) =>
  all[i - 1] === "--import"
    ? pathToFileURL(fromRepo.resolve(arg)).href
    : /\.(m?js|ts)$/.test(arg)
      ? path.join(repo, arg)
      : arg,
);

function build(...args: string[]) {
  const result = spawnSync(NODE, [...COMMAND, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, PATH: `${path.join(repo, "node_modules/.bin")}:${process.env.PATH}` },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const inputDir = inputDirs(root);

/** Builds bad input; asserts exit 1, no stack trace, nothing under --out or beside it. */
function rejected(input: string) {
  const out = path.join(root, `out-${n++}`);
  return refusedCleanly(build("--in", input, "--out", out), out, root);
}

describe("success", () => {
  it("--stats reports wall time, each pass's share of it, CPU time and peak RSS", () => {
    const json = build("--in", PROFILES_DIR, "--out", path.join(root, `out-${n++}`), "--json", "--stats");
    expect(json.code).toBe(0);
    const { stats } = JSON.parse(json.stdout) as {
      stats: { seconds: number; cpu_seconds: number; max_rss_bytes: number; phase_seconds: Record<string, number> };
    };
    expect(Object.keys(stats.phase_seconds)).toEqual(["validate", "write", "hash"]);
    for (const seconds of Object.values(stats.phase_seconds)) expect(seconds).toBeGreaterThan(0);
    const phases = Object.values(stats.phase_seconds);
    expect(phases.reduce((sum, seconds) => sum + seconds, 0)).toBeCloseTo(stats.seconds, 6);
    expect(stats.cpu_seconds).toBeGreaterThan(0);
    expect(stats.max_rss_bytes).toBeGreaterThan(10 * 1048576);
    const line = build("--in", PROFILES_DIR, "--out", path.join(root, `out-${n++}`), "--stats");
    expect(line.stdout).toMatch(
      / \(\d+\.\d\d s: validate \d+\.\d\d, write \d+\.\d\d, hash \d+\.\d\d; CPU \d+\.\d\d s, peak RSS \d+ MiB\)\n$/,
    );
  });

  it("builds the sample profiles and says what it did in one line", () => {
    const out = path.join(root, "dist");
    const result = build("--in", PROFILES_DIR, "--out", out);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Built 26 profiles, \d+ bytes in 1 part: release sha256:([0-9a-f]{64}) at .+\/dist\/\1\n$/,
    );
  });

  it("off a terminal, reports each pass on stderr in plain lines with human units", () => {
    const result = build("--in", PROFILES_DIR, "--out", path.join(root, `out-${n++}`));
    expect(result.code).toBe(0);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^validate: 0 B\/[\d.]+ KiB \(0%\)$/);
    expect(lines).toContainEqual(expect.stringMatching(/^validate: ([\d.]+ KiB)\/\1 \(100%\), .*26 profiles$/));
    expect(lines).toContainEqual(expect.stringMatching(/^write: 26\/26 profiles \(100%\)/));
    expect(lines).toContainEqual(expect.stringMatching(/^hash: ([\d.]+ KiB)\/\1 \(100%\)/));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ESC, the start of a terminal code.
    expect(result.stderr).not.toMatch(/\u001b\[|\d{6,}/); // no terminal codes, no raw byte counts
  });
});

describe("usage errors exit 2 (every usage error: build-command.test.ts)", () => {
  it("--in is required: the message, then the help", () => {
    const result = build("--out", "x");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^catalog:build: --in is required\n\nUsage: npm run catalog:build -- /);
    expect(existsSync(path.join(root, "x"))).toBe(false);
  });
});

describe("bad input exits 1 with a precise report and writes nothing (every report: build-command.test.ts)", () => {
  it("malformed JSON: file, line and column", () => {
    const dir = inputDir({ "good.json": allPassProfile(), "bad.json": '{\n  "a": 1,\n  "b": }\n' });
    const report = rejected(dir);
    expect(report).toContain(`${path.join(dir, "bad.json")}:3:8`);
    expect(report).toContain("expected a value (no trailing comma before ']', nothing may be empty) [json-syntax]");
    expect(report).toContain("found:    a syntax error at line 3, column 8");
  });
});

describe("a full disk", () => {
  it("the message names where the build writes and the space it needs (a real ENOSPC, from /dev/full)", () => {
    let enospc: unknown;
    try {
      writeFileSync("/dev/full", "x");
    } catch (error) {
      enospc = error;
    }
    expect((enospc as NodeJS.ErrnoException).code).toBe("ENOSPC");
    const message = buildFailureMessage(enospc, { outDir: path.join(root, "dist"), inputBytes: 103163384 });
    expect(message).toMatch(
      new RegExp(`^the disk holding ${root} is full \\(ENOSPC: no space left on device, write\\)`),
    );
    expect(message).toContain(
      `beside --out ${path.join(root, "dist")}, and needs about 98.4 MiB (the input's size) free on that filesystem (`,
    );
    expect(message).toContain("run the same command again");
  });

  // A real full filesystem: a 256 KiB tmpfs, where the machine lets the tests mount one (root).
  const mountPoint = path.join(root, "tiny");
  const mounted = (() => {
    if (process.getuid?.() !== 0) return false;
    mkdirSync(mountPoint);
    return spawnSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint]).status === 0;
  })();
  afterAll(() => {
    if (mounted) spawnSync("umount", [mountPoint]);
  });

  it.runIf(mounted)("a build on it exits 3 with that message and leaves nothing there", () => {
    const input = path.join(root, `full-${n++}.ndjson`);
    writeFileSync(input, [...generateProfiles(500, 3)].map((p) => `${JSON.stringify(p)}\n`).join(""));
    const result = build("--in", input, "--out", path.join(mountPoint, "dist"));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `catalog:build: the disk holding ${mountPoint} is full (ENOSPC: no space left on device, write).`,
    );
    expect(result.stderr).toMatch(
      /needs about [\d.]+ MiB \(the input's size\) free on that filesystem \(256\.0 KiB in all\)/,
    );
    expect(readdirSync(mountPoint)).toEqual([]);
  });
});

describe("interrupted", () => {
  it("Ctrl-C mid-build removes the temporary build directory, writes nothing, says so and exits 130", async () => {
    const dir = path.join(root, `interrupt-${n++}`);
    mkdirSync(dir);
    const input = path.join(dir, "big.ndjson");
    writeFileSync(input, [...generateProfiles(6000, 2)].map((p) => `${JSON.stringify(p)}\n`).join(""));
    // Like Ctrl-C in a terminal: the signal goes to the whole process group.
    const child = spawn(NODE, [...COMMAND, "--in", input, "--out", path.join(dir, "out")], {
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, PATH: `${path.join(repo, "node_modules/.bin")}:${process.env.PATH}` },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const temp = () => readdirSync(dir).find((f) => f.startsWith(".catalog-build-"));
    const spilling = () => {
      const name = temp();
      return name !== undefined && existsSync(path.join(dir, name, "runs", "run-0"));
    };
    while (!spilling() && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
    process.kill(-expectDefined(child.pid, "the build's pid"), "SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain(
      `catalog:build: interrupted (Ctrl-C): nothing was written under ${path.join(dir, "out")} and the temporary build directory was removed. Run the same command again to build from the start.`,
    );
    expect(readdirSync(dir)).toEqual(["big.ndjson"]);
  });

  it("a build killed outright leaves its directory; the next build beside it removes it", () => {
    const dir = path.join(root, `abandoned-${n++}`);
    mkdirSync(dir);
    mkdirSync(path.join(dir, ".catalog-build-2147483646-dead"));
    mkdirSync(path.join(dir, `.catalog-build-${process.pid}-alive`)); // a build still running
    const result = build("--in", PROFILES_DIR, "--out", path.join(dir, "out"));
    expect(result.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([`.catalog-build-${process.pid}-alive`, "out"]);
  });
});
