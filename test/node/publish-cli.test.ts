/**
 * catalog:publish and catalog:rollback as an operator runs them (the doors: exit codes, progress
 * on stderr, Ctrl-C), against a temp --persist-to state read back through
 * wrangler's platform proxy (the same state `wrangler dev` would serve). What the commands do and
 * say, usage errors included, is tested in process in publish-command.test.ts. Each CLI run starts
 * Node, tsx and a workerd; the tests run at once.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog, type BuildResult } from "../../src/node/catalog/build/build";
import { runScript, scriptCommand } from "../e2e/support/scripts";
import { expectDefined } from "../../src/common/expect";
import { currentOf, publishedStates, type PublishedStates } from "./published-states";

let states: PublishedStates;
let dir: string;
let a: BuildResult;
/** A state where `a` is current: copied by the tests that start there. */
let publishedA: string;
beforeAll(async () => {
  states = await publishedStates("catalog-publish-cli-", { withAB: false });
  ({ dir, a, publishedA } = states);
}, 120_000);
afterAll(() => states?.remove());

const stateDir = (name: string) => states.stateDir(name);
const copyOf = (template: string, name: string) => states.copyOf(template, name);

const publish = (release: string, state: string, ...args: string[]) =>
  runScript("catalog-publish.ts", ["--release", release, "--persist-to", state, ...args]);
const rollback = (id: string, state: string, ...args: string[]) =>
  runScript("catalog-rollback.ts", ["--release-id", id, "--persist-to", state, ...args]);

// Each CLI run starts workerd through wrangler's platform proxy: seconds each on a busy machine.
const CLI_BLOCK = { timeout: 180_000 };

describe("catalog:publish", CLI_BLOCK, () => {
  it.concurrent("publishes into the local state, then publishing again is a no-op", async () => {
    const state = stateDir("noop");
    const segments = expectDefined(a.manifest.index, "the release index").reduce(
      (sum, index) => sum + index.segments.length,
      0,
    );
    const first = await publish(a.releaseDir, state);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe(
      `published ${a.manifest.release_id} to local production (${state}/v3): ${a.manifest.parts.length} parts, ${a.manifest.parts.length} uploaded (${a.manifest.bytes} bytes); ` +
        `index: ${segments} segments, ${segments} uploaded; query rows: 26 loaded; now current`,
    );
    expect(first.stderr).toContain(`upload parts: ${a.manifest.parts.length}/${a.manifest.parts.length}`);
    const again = await publish(a.releaseDir, state);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${a.manifest.release_id} is already current on local production`);
    expect(await currentOf(state)).toEqual({ release_id: a.manifest.release_id, previous: [] });
  });

  it.concurrent("Ctrl-C mid-upload exits 130 saying what was uploaded and that a rerun finishes; the rerun does", async () => {
    const state = copyOf(publishedA, "ctrl-c");
    const many = await buildCatalog({
      input: path.join(dir, "subset"),
      outDir: path.join(dir, "dist-small-parts"),
      partBytes: 3000,
    });
    // Like Ctrl-C in a terminal: the signal goes to the whole process group, once uploading started.
    const { command, args } = scriptCommand("catalog-publish.ts");
    const child = spawn(command, [...args, "--release", many.releaseDir, "--persist-to", state], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    while (!stderr.includes("upload parts: 0/") && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
    process.kill(-expectDefined(child.pid, "the publish's pid"), "SIGINT");
    expect(await exited, stderr).toBe(130);
    expect(stderr).toMatch(
      new RegExp(
        `catalog:publish: interrupted \\(Ctrl-C\\): \\d+ of ${many.manifest.parts.length} parts of ${many.manifest.release_id} were uploaded .*; current was not changed`,
      ),
    );
    expect(stderr).toContain(
      "Run the same command again to finish: parts already uploaded are checked, not sent again.",
    );
    expect((await currentOf(state))?.release_id).toBe(a.manifest.release_id);

    const rerun = await publish(many.releaseDir, state);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain(`now current (was ${a.manifest.release_id})`);
  });

  it.concurrent("--help → exit 0", async () => {
    const run = await runScript("catalog-publish.ts", ["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Exit codes:");
  });
});

describe("catalog:rollback", CLI_BLOCK, () => {
  it.concurrent("a malformed id → exit 2", async () => {
    const run = await rollback("latest", stateDir("malformed"));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--release-id "latest" is not a release id');
  });
});
