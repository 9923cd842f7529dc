/**
 * catalog:publish and catalog:rollback as an operator runs them, against a temp --persist-to state
 * read back through wrangler's platform proxy (the same state `wrangler dev` would serve). Each CLI
 * run starts Node, tsx and a workerd: a test that needs releases already published starts from a
 * copy of a state published once, in process, and the tests run at once, a block at a time (each
 * has a state of its own).
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog, type BuildResult } from "../../src/node/catalog/build/build";
import { openDeploymentStorage } from "../../src/node/local/deployment-storage";
import { publishRelease, readCurrent } from "../../src/node/catalog/publish";
import { openReleaseDir } from "../../src/node/catalog/release-dir";
import { runScript } from "../e2e/support/scripts";
import { expectDefined } from "../../src/common/expect";

const TSX_CLI = path.resolve("node_modules/tsx/dist/cli.mjs");

const PROFILES = path.resolve("data/profiles");
let dir: string;
let a: BuildResult;
let b: BuildResult;
/** States where `a` is current, and where `b` is, after `a`: copied by the tests that start there. */
let publishedA: string;
let publishedAB: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "catalog-publish-cli-"));
  const subset = path.join(dir, "subset");
  mkdirSync(subset);
  for (const file of readdirSync(PROFILES).slice(1)) cpSync(path.join(PROFILES, file), path.join(subset, file));
  a = await buildCatalog({ input: PROFILES, outDir: path.join(dir, "dist"), partBytes: 7919 });
  b = await buildCatalog({ input: subset, outDir: path.join(dir, "dist"), partBytes: 7919 });
  publishedA = await publishedState("published-a", [a]);
  publishedAB = path.join(dir, "published-ab");
  cpSync(publishedA, publishedAB, { recursive: true });
  await publishedState("published-ab", [b]);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stateDir = (name: string) => path.join(dir, name);
/** A state of its own for a test, copied from `template`. */
const copyOf = (template: string, name: string) => {
  cpSync(template, stateDir(name), { recursive: true });
  return stateDir(name);
};

/** Publishes `releases` in turn into the state `name` with the engine, in process: setup, not the subject. */
async function publishedState(name: string, releases: BuildResult[]): Promise<string> {
  const opened = await openDeploymentStorage({ persistTo: stateDir(name) });
  try {
    for (const release of releases) await publishRelease(opened.storage, openReleaseDir(release.releaseDir));
  } finally {
    await opened.dispose();
  }
  return stateDir(name);
}
const publish = (release: string, state: string, ...args: string[]) =>
  runScript("catalog-publish.ts", ["--release", release, "--persist-to", state, ...args]);
const rollback = (id: string, state: string, ...args: string[]) =>
  runScript("catalog-rollback.ts", ["--release-id", id, "--persist-to", state, ...args]);

async function currentOf(state: string, environment?: string) {
  const opened = await openDeploymentStorage({ persistTo: state, environment });
  try {
    return await readCurrent(opened.storage.kv);
  } finally {
    await opened.dispose();
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// Each CLI run starts workerd through wrangler's platform proxy: seconds each on a busy machine.
const CLI_BLOCK = { timeout: 180_000 };

describe("with npm start running (its record names its state)", CLI_BLOCK, () => {
  const record = (persistTo: string) => {
    const file = path.join(dir, `npm-start-${path.basename(persistTo)}.json`);
    writeFileSync(file, JSON.stringify({ pid: process.pid, persistTo, ports: { production: 1, sandbox: 2 } }));
    return { NPM_START_FILE: file };
  };

  it.concurrent("without --persist-to, publishes to the state npm start serves and says so", async () => {
    const state = stateDir("running");
    const run = await runScript("catalog-publish.ts", ["--release", a.releaseDir], { env: record(state) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`npm start (pid ${process.pid}) is running over ${state}: acting on that state`);
    expect((await currentOf(state))?.release_id).toBe(a.manifest.release_id);
  });

  it.concurrent("with --persist-to elsewhere, acts there and names both places", async () => {
    const running = stateDir("served");
    const other = stateDir("elsewhere");
    const run = await runScript("catalog-publish.ts", ["--release", b.releaseDir, "--persist-to", other], {
      env: record(running),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`acting on ${other} (--persist-to), not on ${running}, the state npm start`);
    expect((await currentOf(other))?.release_id).toBe(b.manifest.release_id);
  });

  it.concurrent("a record whose process is gone is ignored", async () => {
    const state = stateDir("gone");
    const file = path.join(dir, "npm-start-gone.json");
    writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 17, persistTo: state, ports: {} }));
    const run = await runScript("catalog-rollback.ts", ["--list", "--persist-to", stateDir("gone-list")], {
      env: { NPM_START_FILE: file },
    });
    expect(run.stderr).not.toContain("npm start");
  });
});

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

  it.concurrent("an upload interrupted midway leaves the previous release current; running it again finishes", async () => {
    const state = copyOf(publishedA, "interrupted");
    // Part 5 goes missing mid-upload (as if the disk or the connection failed there).
    const part = path.join(b.releaseDir, "parts", "5");
    renameSync(part, `${part}.away`);
    try {
      const failed = await publish(b.releaseDir, state);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain("cannot read part 5");
      expect(failed.stderr).toContain(`upload parts: 5/${b.manifest.parts.length} parts`); // parts 0-4 were uploaded before it stopped
    } finally {
      renameSync(`${part}.away`, part);
    }
    expect((await currentOf(state))?.release_id).toBe(a.manifest.release_id);
    const finished = await publish(b.releaseDir, state);
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).toContain(`now current (was ${a.manifest.release_id})`);
  });

  it.concurrent("Ctrl-C mid-upload exits 130 saying what was uploaded and that a rerun finishes; the rerun does", async () => {
    const state = copyOf(publishedA, "ctrl-c");
    const many = await buildCatalog({
      input: path.join(dir, "subset"),
      outDir: path.join(dir, "dist-small-parts"),
      partBytes: 3000,
    });
    // Like Ctrl-C in a terminal: the signal goes to the whole process group, once uploading started.
    const child = spawn(
      process.execPath,
      [TSX_CLI, path.resolve("scripts/catalog-publish.ts"), "--release", many.releaseDir, "--persist-to", state],
      {
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
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

  it.concurrent("--env sandbox publishes to the sandbox's own bindings, not production's", async () => {
    const state = stateDir("sandbox");
    const run = await publish(a.releaseDir, state, "--env", "sandbox");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("to local env sandbox");
    expect((await currentOf(state, "sandbox"))?.release_id).toBe(a.manifest.release_id);
    expect(await currentOf(state)).toBeNull();
  });

  it.concurrent.each([
    [[], "--release <dir> is required"],
    [["--release", "."], "holds no manifest.json"],
    [["--release", "x", "--remote", "--persist-to", "y"], "cannot be combined with --remote"],
    [["--bogus"], "Unknown option '--bogus'"],
  ])("usage error %j → exit 2 with the help", async (args, message) => {
    const run = await runScript("catalog-publish.ts", args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("Usage: npm run catalog:publish");
  });

  it.concurrent("--remote stops before any network call until `npm run deploy` has recorded the namespace ids, saying so", async () => {
    // A copy of wrangler.toml where no deploy ever ran (no .wrangler/deploy next to it).
    const config = path.join(stateDir("never-deployed"), "wrangler.toml");
    mkdirSync(path.dirname(config), { recursive: true });
    cpSync("wrangler.toml", config);
    const run = await runScript("catalog-publish.ts", [
      "--release",
      a.releaseDir,
      "--remote",
      "--config",
      config,
      "--env",
      "sandbox",
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "no Cloudflare namespace id for CATALOG_KV, OAUTH_KV, AUTH_KV of sandbox: run `npm run deploy -- --env sandbox` first",
    );
    expect(run.stderr).toContain(path.join(path.dirname(config), ".wrangler", "deploy", "sandbox.wrangler.json"));
  });

  it.concurrent("--help → exit 0", async () => {
    const run = await runScript("catalog-publish.ts", ["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Exit codes:");
  });
});

describe("catalog:rollback", CLI_BLOCK, () => {
  it.concurrent("lists the kept releases with when, how many profiles, how big and which is current; refuses an unknown one", async () => {
    const state = copyOf(publishedAB, "rollback");

    const list = await runScript("catalog-rollback.ts", ["--list", "--persist-to", state]);
    expect(list.code, list.stderr).toBe(0);
    const [header, current, kept, ...rest] = list.stdout.trimEnd().split("\n");
    expect(rest).toEqual([]);
    expect(header).toMatch(/^STATUS\s+RELEASE\s+PUBLISHED\s+PROFILES\s+SIZE$/);
    const timestamp = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";
    expect(current).toMatch(new RegExp(`^current\\s+${b.manifest.release_id}\\s+${timestamp}\\s+25\\s+[\\d.]+ KiB$`));
    expect(kept).toMatch(
      new RegExp(`^kept \\(older\\)\\s+${a.manifest.release_id}\\s+${timestamp}\\s+26\\s+[\\d.]+ KiB$`),
    );

    const unknown = `sha256:${"c".repeat(64)}`;
    const refused = await rollback(unknown, state);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${unknown} is not one of the kept earlier releases of this deployment (kept: ${a.manifest.release_id}`,
    );
  });

  it.concurrent("says which way it moved: back to the older release, then forward to the newer one", async () => {
    const state = copyOf(publishedAB, "rollback-both-ways");
    const where = `local production (${state}/v3)`;

    const back = await rollback(a.manifest.release_id.slice(7), state);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout.trim()).toMatch(
      new RegExp(
        `^rolled back ${escapeRegExp(where)} to the older release ${a.manifest.release_id} \\(published \\S+; was ${b.manifest.release_id}, published \\S+, which stays kept\\)$`,
      ),
    );
    expect(await currentOf(state)).toEqual({ release_id: a.manifest.release_id, previous: [b.manifest.release_id] });
    const list = await runScript("catalog-rollback.ts", ["--list", "--persist-to", state]);
    expect(list.stdout).toMatch(new RegExp(`\\nkept \\(newer\\)\\s+${b.manifest.release_id}`));

    const forward = await rollback(b.manifest.release_id, state);
    expect(forward.code, forward.stderr).toBe(0);
    expect(forward.stdout.trim()).toMatch(
      new RegExp(`^rolled forward ${escapeRegExp(where)} to the newer release ${b.manifest.release_id} \\(published `),
    );
    expect((await currentOf(state))?.release_id).toBe(b.manifest.release_id);
  });

  it.concurrent("a malformed id → exit 2", async () => {
    const run = await rollback("latest", stateDir("malformed"));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--release-id "latest" is not a release id');
  });
});
