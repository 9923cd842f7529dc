/**
 * Where catalog:pull takes its API key: $CATALOG_API_KEY or `--key-file <path|->`, never the command
 * line (npm echoes it, ps shows it); `--key`, its former option, still works for one release with a
 * warning. What the server is sent is read off the stand-in server (pull-fixture-server.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog, type BuildResult } from "../../src/node/catalog/build/build";
import { catalogPull } from "../../src/node/catalog/pull-command";
import { type CliOptions, expectUsageError, runInProcess } from "./cli-in-process";
import { fixtureServer } from "./pull-fixture-server";
import { PROFILES_DIR } from "./profile-fixtures";

const KEY = "sk_test_from_the_environment";
const FILED = "sk_test_from_a_file";
let dir: string;
let built: BuildResult;
let keyFile: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "catalog-pull-key-"));
  built = await buildCatalog({ input: PROFILES_DIR, outDir: path.join(dir, "dist"), partBytes: 1 << 20 });
  keyFile = path.join(dir, "key.txt");
  writeFileSync(keyFile, `${FILED}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The pull's run, and the Authorization header of its first request. */
async function pullWith(args: string[], options: CliOptions) {
  const server = await fixtureServer(built.releaseDir, "none");
  try {
    const out = path.join(dir, `${Math.random()}.json`);
    const run = await runInProcess(catalogPull.run, ["--base-url", server.url, "--out", out, ...args], options);
    return { ...run, sent: server.authorizations[0] };
  } finally {
    await server.close();
  }
}

describe("catalog:pull's API key", () => {
  it("comes from $CATALOG_API_KEY", async () => {
    const run = await pullWith([], { env: { CATALOG_API_KEY: KEY } });
    expect([run.code, run.sent, run.stderr]).toEqual([0, `Bearer ${KEY}`, ""]);
  });

  it("or from --key-file, which wins over the variable; its final newline is not part of the key", async () => {
    const run = await pullWith(["--key-file", keyFile], { env: { CATALOG_API_KEY: KEY } });
    expect([run.code, run.sent]).toEqual([0, `Bearer ${FILED}`]);
  });

  it("or from standard input with --key-file -", async () => {
    const run = await pullWith(["--key-file=-"], { env: { CATALOG_API_KEY: "" }, stdin: `${FILED}\n` });
    expect([run.code, run.sent]).toEqual([0, `Bearer ${FILED}`]);
  });

  it("still comes from --key, deprecated: it works and stderr says why it goes", async () => {
    const run = await pullWith(["--key", FILED], { env: { CATALOG_API_KEY: KEY } });
    expect([run.code, run.sent]).toEqual([0, `Bearer ${FILED}`]);
    expect(run.stderr).toMatch(/^catalog:pull: --key on the command line is deprecated .*ps shows it/);
    expect(run.stderr).toContain("set $CATALOG_API_KEY or use --key-file <path>");
  });

  it.each([
    [["--key-file", "/nonexistent/key.txt"], "--key-file /nonexistent/key.txt: ENOENT"],
    [["--key-file", "-", "--key", FILED], "--key-file and --key exclude each other"],
  ])("%j → a usage error, before any request", async (args, problem) => {
    const run = await pullWith(args, { env: { CATALOG_API_KEY: KEY } });
    expectUsageError(run, "catalog:pull", problem);
    expect(run.sent).toBeUndefined();
  });
});
