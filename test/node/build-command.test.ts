/**
 * catalog:build in process, through `catalogBuild.run` (the contract its door runs, without exiting):
 * usage errors, and the report on bad input (file, line/column, profile id, path, rule, expected
 * vs found), never a stack trace, nothing written under --out. The door as a user meets it (exit
 * codes, progress on stderr, --stats, a full disk, Ctrl-C) is run as a subprocess in build-cli.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { catalogBuild } from "../../src/node/catalog/build/command";
import { expectUsageError, runInProcess } from "./cli-in-process";
import { inputDirs, refusedCleanly } from "./build-inputs";
import { allPassProfile, constrainedProfile, PROFILES_DIR } from "./profile-fixtures";

const root = mkdtempSync(path.join(tmpdir(), "catalog-build-command-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const X = path.join(root, "x");
const MISSING = path.join(root, "missing-dir");

/** catalog:build with `args`: its exit code and what it printed on stdout and stderr. */
const build = (...args: string[]) => runInProcess(catalogBuild.run, args);

const inputDir = inputDirs(root);

/** Builds bad input; asserts exit 1, no stack trace, nothing under --out or beside it. */
async function rejected(input: string) {
  const out = path.join(root, `out-${n++}`);
  return refusedCleanly(await build("--in", input, "--out", out), out, root);
}

describe("success (the summary line, --stats and progress: build-cli.test.ts)", () => {
  it("--json prints the manifest and the release directory", async () => {
    const result = await build(
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

  it("building the same input again into the same --out says it is already built, identical", async () => {
    const out = path.join(root, "dist-twice");
    const first = await build("--in", PROFILES_DIR, "--out", out);
    const again = await build("--in", PROFILES_DIR, "--out", out);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout.replace(/^Built /, "Already built (identical) "));
    expect(readdirSync(out)).toHaveLength(1);
  });

  it("--help explains every flag and exits 0, building nothing", async () => {
    const result = await build("--help", "--in", PROFILES_DIR, "--out", X);
    expect(result.code).toBe(0);
    for (const flag of ["--in", "--out", "--part-bytes", "--namespace", "--json", "--stats"])
      expect(result.stdout).toContain(flag);
    expect(existsSync(X)).toBe(false);
  });

  it("--help wins over a usage error, as in every CLI", async () => {
    const result = await build("--colour", "red", "--help");
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^Usage: npm run catalog:build -- /);
  });
});

describe("usage errors exit 2 (--in missing: build-cli.test.ts)", () => {
  it.each([
    [["--in", PROFILES_DIR], "--out is required"],
    [["--in", PROFILES_DIR, "--out", X, "--part-bytes", "0"], '--part-bytes must be a whole number ≥ 1, got "0"'],
    [["--in", PROFILES_DIR, "--out", X, "--colour", "red"], "Unknown option '--colour'"],
    [["--in", MISSING, "--out", X], `--in ${MISSING}: no such file or directory`],
    [["--in", PROFILES_DIR, "--out", X, "--namespace", "Bad NS"], "namespace must be lowercase letters"],
    [
      ["--in", PROFILES_DIR, "--out", `${PROFILES_DIR}/northwind-payments-api--checkout.json`],
      "exists and is not a directory",
    ],
  ])("%j", async (args, message) => {
    expectUsageError(await build(...args), "catalog:build", message);
    expect(existsSync(X)).toBe(false);
  });
});

describe("bad input exits 1 with a precise report and writes nothing (malformed JSON: build-cli.test.ts)", () => {
  it("malformed ndjson line: the file's line number", async () => {
    const file = path.join(root, `in-${n++}.ndjson`);
    writeFileSync(file, `${JSON.stringify(allPassProfile())}\n\n{"agent_readiness_profile_id": "arp_x",}\n`);
    expect(await rejected(file)).toContain(
      `${file}:3:40\n  expected a property name in double quotes (no trailing comma before '}') [json-syntax]`,
    );
  });

  it("a streamed .json array: each broken element at its own line and column, and a broken structure", async () => {
    const file = path.join(root, `array-${n++}.json`);
    const good = JSON.stringify(allPassProfile());
    writeFileSync(file, `[\n  ${good},\n  {"agent_readiness_profile_id": tru},\n  42,\n]\n`);
    const report = await rejected(file);
    expect(report).toContain(
      `${file} [1]:3:34\n  unexpected character (not a JSON value; strings need double quotes) [json-syntax]`,
    );
    expect(report).toContain(`${file} [2]:4\n  a profile must be a JSON object [input]`);
    expect(report).toContain(`${file}:5:1\n  expected a value (no trailing comma before ']') [json-syntax]`);
    expect(report).toContain("3 violations in 1 file");
  });

  it("wrong types and unknown fields: profile id, path, rule, expected and found", async () => {
    const profile = constrainedProfile();
    profile.coverage.covered_signals = "14";
    profile.scope.funnel.owner = "ops";
    const report = await rejected(inputDir({ "p.json": profile }));
    expect(report).toContain(`(${profile.agent_readiness_profile_id})`);
    expect(report).toContain(
      '  coverage.covered_signals: must be a number [schema]\n      expected: number\n      found:    string "14"',
    );
    expect(report).toContain('  scope.funnel.owner: unknown field "owner" [schema]');
    expect(report).toContain("2 violations in 1 file; nothing was written.");
  });

  it("duplicate ids and duplicate (product, funnel) pairs, in every file involved", async () => {
    const a = constrainedProfile();
    const b = structuredClone(a);
    b.scope.funnel = { key: "payouts", name: "Payouts" };
    const c = structuredClone(a);
    c.agent_readiness_profile_id = "arp_0000000000000000000000000z";
    const report = await rejected(inputDir({ "a.json": a, "b.json": b, "c.json": c }));
    expect(report.match(/\[unique-profile-id\]/g)).toHaveLength(2);
    expect(report).toContain("agent_readiness_profile_id: 2 profiles share this id; also in");
    expect(report).toMatch(
      /scope: product "zurich-ledger-api" with funnel "reconciliation" is already profiled by arp_\w+ \(.+\.json\) \[unique-scope\]/,
    );
    expect(report).toContain("3 violations in 2 files");
  });

  it("a different policy in one profile", async () => {
    const odd = allPassProfile();
    odd.policy_version = "readiness-policy/2027.01";
    const report = await rejected(
      inputDir({ "a.json": constrainedProfile(), "b.json": odd, "c.json": structuredClone(constrainedProfile()) }),
    );
    expect(report).toContain(
      "policy_version: every profile of a catalog is graded under one policy [policy-consistency]",
    );
    expect(report).toContain('found:    "readiness-policy/2027.01"');
  });

  it("every violation of every file is reported, with the total", async () => {
    const one = constrainedProfile();
    one.grade = "E";
    one.stages[1].public_state = "ready";
    const two = allPassProfile();
    two.state_label = "Limited";
    const report = await rejected(inputDir({ "one.json": one, "two.json": two, "three.json": "[1," }));
    expect(report).toContain("[schema]");
    expect(report).toContain("[spec-rule-2]");
    expect(report).toContain("[state-label]");
    expect(report).toContain("[json-syntax]");
    expect(report).toMatch(/(\d+) violations in 3 files; nothing was written\.$/m);
  });

  it("empty input: an empty directory, a 0-byte file, an empty array, a blank ndjson", async () => {
    expect(await rejected(inputDir({}))).toContain("the directory holds no .json files [input]");
    const zero = path.join(root, `zero-${n++}.json`);
    writeFileSync(zero, "");
    expect(await rejected(zero)).toContain("the file is empty (0 bytes) [input]");
    expect(await rejected(inputDir({ "empty.json": "[]" }))).toContain("the input holds no profiles [input]");
    const blank = path.join(root, `blank-${n++}.ndjson`);
    writeFileSync(blank, "\n  \n");
    expect(await rejected(blank)).toContain("the input holds no profiles [input]");
  });

  it("a directory with non-JSON files and a 0-byte .json file", async () => {
    const dir = inputDir({ "ok.json": allPassProfile(), "README.md": "# notes\n", "empty.json": "" });
    const report = await rejected(dir);
    expect(report).toContain(
      `${path.join(dir, "README.md")}\n  not a .json file: an input directory holds only .json files of profiles (move it out or rename it) [input]`,
    );
    expect(report).toContain(`${path.join(dir, "empty.json")}\n  the file is empty (0 bytes) [input]`);
  });

  it("not a profile: a number, an array element that is a string, invalid UTF-8", async () => {
    expect(await rejected(inputDir({ "n.json": "42" }))).toContain("a profile must be a JSON object [input]");
    expect(await rejected(inputDir({ "a.json": '["x"]' }))).toMatch(
      /a\.json \[0\]\n {2}a profile must be a JSON object \[input\]/,
    );
    const latin1 = inputDir({});
    writeFileSync(path.join(latin1, "l.json"), Buffer.from([0x7b, 0x22, 0xfc, 0x22, 0x7d]));
    expect(await rejected(latin1)).toContain("not valid UTF-8 (RFC 8259 §8.1) [input]");
  });

  it("--json on failure prints the violations as data", async () => {
    const profile = constrainedProfile();
    profile.stages[4].outcome = "pass";
    const out = path.join(root, `out-${n++}`);
    const result = await build("--in", inputDir({ "p.json": profile }), "--out", out, "--json");
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

  it("an existing --out directory is left exactly as it was", async () => {
    const out = path.join(root, `out-${n++}`);
    mkdirSync(out);
    writeFileSync(path.join(out, "keep.txt"), "kept");
    const result = await build("--in", inputDir({ "bad.json": "{" }), "--out", out);
    expect(result.code).toBe(1);
    expect(readdirSync(out)).toEqual(["keep.txt"]);
  });
});
