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
import { allPassProfile, constrainedProfile, PROFILES_DIR } from "./profile-fixtures";
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

/** A directory holding the given files; values are written as pretty JSON, strings as they are. */
function inputDir(files: Record<string, unknown>): string {
  const dir = path.join(root, `in-${n++}`);
  mkdirSync(dir);
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(
      path.join(dir, name),
      typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`,
    );
  }
  return dir;
}

/** Builds bad input; asserts exit 1, no stack trace, nothing under --out or beside it. */
function rejected(input: string) {
  const out = path.join(root, `out-${n++}`);
  const result = build("--in", input, "--out", out);
  expect(result.code).toBe(1);
  expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack frames
  expect(existsSync(out)).toBe(false);
  expect(readdirSync(root).filter((f) => f.startsWith(".catalog-build-"))).toEqual([]);
  return result.stderr;
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

  it("--json prints the manifest and the release directory", () => {
    const result = build(
      "--in",
      PROFILES_DIR,
      "--out",
      path.join(root, "dist-json"),
      "--json",
      "--part-bytes",
      "50000",
    );
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ ok: true, unchanged: false, manifest: { profile_count: 26, part_bytes: 50000 } });
    expect(json.release_dir).toBe(path.join(root, "dist-json", json.manifest.release_id.slice(7)));
  });

  it("--help explains every flag and exits 0", () => {
    const result = build("--help");
    expect(result.code).toBe(0);
    for (const flag of ["--in", "--out", "--part-bytes", "--namespace", "--json", "--stats"])
      expect(result.stdout).toContain(flag);
  });
});

describe("usage errors exit 2", () => {
  it.each([
    [["--out", "x"], "--in is required"],
    [["--in", PROFILES_DIR], "--out is required"],
    [["--in", PROFILES_DIR, "--out", "x", "--part-bytes", "0"], '--part-bytes must be a whole number ≥ 1, got "0"'],
    [["--in", PROFILES_DIR, "--out", "x", "--colour", "red"], "Unknown option '--colour'"],
    [["--in", "missing-dir", "--out", "x"], "--in missing-dir: no such file or directory"],
    [["--in", PROFILES_DIR, "--out", "x", "--namespace", "Bad NS"], "namespace must be lowercase letters"],
    [
      ["--in", PROFILES_DIR, "--out", `${PROFILES_DIR}/northwind-payments-api--checkout.json`],
      "exists and is not a directory",
    ],
  ])("%j", (args, message) => {
    const result = build(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(existsSync(path.join(root, "x"))).toBe(false);
  });
});

describe("bad input exits 1 with a precise report and writes nothing", () => {
  it("malformed JSON: file, line and column", () => {
    const dir = inputDir({ "good.json": allPassProfile(), "bad.json": '{\n  "a": 1,\n  "b": }\n' });
    const report = rejected(dir);
    expect(report).toContain(`${path.join(dir, "bad.json")}:3:8`);
    expect(report).toContain("expected a value (no trailing comma before ']', nothing may be empty) [json-syntax]");
    expect(report).toContain("found:    a syntax error at line 3, column 8");
  });

  it("malformed ndjson line: the file's line number", () => {
    const file = path.join(root, `in-${n++}.ndjson`);
    writeFileSync(file, `${JSON.stringify(allPassProfile())}\n\n{"agent_readiness_profile_id": "arp_x",}\n`);
    expect(rejected(file)).toContain(
      `${file}:3:40\n  expected a property name in double quotes (no trailing comma before '}') [json-syntax]`,
    );
  });

  it("a streamed .json array: each broken element at its own line and column, and a broken structure", () => {
    const file = path.join(root, `array-${n++}.json`);
    const good = JSON.stringify(allPassProfile());
    writeFileSync(file, `[\n  ${good},\n  {"agent_readiness_profile_id": tru},\n  42,\n]\n`);
    const report = rejected(file);
    expect(report).toContain(
      `${file} [1]:3:34\n  unexpected character (not a JSON value; strings need double quotes) [json-syntax]`,
    );
    expect(report).toContain(`${file} [2]:4\n  a profile must be a JSON object [input]`);
    expect(report).toContain(`${file}:5:1\n  expected a value (no trailing comma before ']') [json-syntax]`);
    expect(report).toContain("3 violations in 1 file");
  });

  it("wrong types and unknown fields: profile id, path, rule, expected and found", () => {
    const profile = constrainedProfile();
    profile.coverage.covered_signals = "14";
    profile.scope.funnel.owner = "ops";
    const report = rejected(inputDir({ "p.json": profile }));
    expect(report).toContain(`(${profile.agent_readiness_profile_id})`);
    expect(report).toContain(
      '  coverage.covered_signals: must be a number [schema]\n      expected: number\n      found:    string "14"',
    );
    expect(report).toContain('  scope.funnel.owner: unknown field "owner" [schema]');
    expect(report).toContain("2 violations in 1 file; nothing was written.");
  });

  it("duplicate ids and duplicate (product, funnel) pairs, in every file involved", () => {
    const a = constrainedProfile();
    const b = structuredClone(a);
    b.scope.funnel = { key: "payouts", name: "Payouts" };
    const c = structuredClone(a);
    c.agent_readiness_profile_id = "arp_0000000000000000000000000z";
    const report = rejected(inputDir({ "a.json": a, "b.json": b, "c.json": c }));
    expect(report.match(/\[unique-profile-id\]/g)).toHaveLength(2);
    expect(report).toContain("agent_readiness_profile_id: 2 profiles share this id; also in");
    expect(report).toMatch(
      /scope: product "zurich-ledger-api" with funnel "reconciliation" is already profiled by arp_\w+ \(.+\.json\) \[unique-scope\]/,
    );
    expect(report).toContain("3 violations in 2 files");
  });

  it("a different policy in one profile", () => {
    const odd = allPassProfile();
    odd.policy_version = "readiness-policy/2027.01";
    const report = rejected(
      inputDir({ "a.json": constrainedProfile(), "b.json": odd, "c.json": structuredClone(constrainedProfile()) }),
    );
    expect(report).toContain(
      "policy_version: every profile of a catalog is graded under one policy [policy-consistency]",
    );
    expect(report).toContain('found:    "readiness-policy/2027.01"');
  });

  it("every violation of every file is reported, with the total", () => {
    const one = constrainedProfile();
    one.grade = "E";
    one.stages[1].public_state = "ready";
    const two = allPassProfile();
    two.state_label = "Limited";
    const report = rejected(inputDir({ "one.json": one, "two.json": two, "three.json": "[1," }));
    expect(report).toContain("[schema]");
    expect(report).toContain("[spec-rule-2]");
    expect(report).toContain("[state-label]");
    expect(report).toContain("[json-syntax]");
    expect(report).toMatch(/(\d+) violations in 3 files; nothing was written\.$/m);
  });

  it("empty input: an empty directory, a 0-byte file, an empty array, a blank ndjson", () => {
    expect(rejected(inputDir({}))).toContain("the directory holds no .json files [input]");
    const zero = path.join(root, `zero-${n++}.json`);
    writeFileSync(zero, "");
    expect(rejected(zero)).toContain("the file is empty (0 bytes) [input]");
    expect(rejected(inputDir({ "empty.json": "[]" }))).toContain("the input holds no profiles [input]");
    const blank = path.join(root, `blank-${n++}.ndjson`);
    writeFileSync(blank, "\n  \n");
    expect(rejected(blank)).toContain("the input holds no profiles [input]");
  });

  it("a directory with non-JSON files and a 0-byte .json file", () => {
    const dir = inputDir({ "ok.json": allPassProfile(), "README.md": "# notes\n", "empty.json": "" });
    const report = rejected(dir);
    expect(report).toContain(
      `${path.join(dir, "README.md")}\n  not a .json file: an input directory holds only .json files of profiles (move it out or rename it) [input]`,
    );
    expect(report).toContain(`${path.join(dir, "empty.json")}\n  the file is empty (0 bytes) [input]`);
  });

  it("not a profile: a number, an array element that is a string, invalid UTF-8", () => {
    expect(rejected(inputDir({ "n.json": "42" }))).toContain("a profile must be a JSON object [input]");
    expect(rejected(inputDir({ "a.json": '["x"]' }))).toMatch(
      /a\.json \[0\]\n {2}a profile must be a JSON object \[input\]/,
    );
    const latin1 = inputDir({});
    writeFileSync(path.join(latin1, "l.json"), Buffer.from([0x7b, 0x22, 0xfc, 0x22, 0x7d]));
    expect(rejected(latin1)).toContain("not valid UTF-8 (RFC 8259 §8.1) [input]");
  });

  it("--json on failure prints the violations as data", () => {
    const profile = constrainedProfile();
    profile.stages[4].outcome = "pass";
    const out = path.join(root, `out-${n++}`);
    const result = build("--in", inputDir({ "p.json": profile }), "--out", out, "--json");
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout);
    expect(json.ok).toBe(false);
    expect(json.count).toBe(json.violations.length);
    expect(json.violations).toContainEqual(
      expect.objectContaining({
        file: expect.stringMatching(/p\.json$/),
        profile_id: profile.agent_readiness_profile_id,
        rule: "spec-rule-2",
        path: "stages[4].public_state",
        expected: '"ready"',
        found: '"limited"',
      }),
    );
  });

  it("an existing --out directory is left exactly as it was", () => {
    const out = path.join(root, `out-${n++}`);
    mkdirSync(out);
    writeFileSync(path.join(out, "keep.txt"), "kept");
    const result = build("--in", inputDir({ "bad.json": "{" }), "--out", out);
    expect(result.code).toBe(1);
    expect(readdirSync(out)).toEqual(["keep.txt"]);
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
