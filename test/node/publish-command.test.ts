/**
 * catalog:publish and catalog:rollback in process (the `run` of their cliCommand: what the doors
 * run, with this process's streams swapped for strings), over real local state: a temp
 * --persist-to read back through wrangler's platform proxy. The doors themselves (a publish and
 * its no-op, --help, Ctrl-C, a malformed id) are run as child processes in publish-cli.test.ts.
 */
import { mkdirSync, cpSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hexOf, storageKeys } from "../../src/common/catalog/manifest";
import { expectDefined } from "../../src/common/expect";
import { catalogPublish } from "../../src/node/catalog/publish-command";
import { catalogRollback } from "../../src/node/catalog/rollback-command";
import { openDeploymentStorage } from "../../src/node/local/deployment-storage";
import { runInProcess } from "./cli-in-process";
import { currentOf, publishedStates, type PublishedStates } from "./published-states";

let states: PublishedStates;
beforeAll(async () => {
  states = await publishedStates("catalog-publish-command-", { withAB: true });
}, 120_000);
afterAll(() => states?.remove());

const publish = (release: string, ...args: string[]) =>
  runInProcess(catalogPublish.run, ["--release", release, ...args]);
const rollback = (...args: string[]) => runInProcess(catalogRollback.run, args);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const publishedA = () => states.publishedA;
const publishedAB = () => expectDefined(states.publishedAB, "the state with a then b published");

// Each command opens the state through wrangler's platform proxy (a workerd): seconds on a busy machine.
const BLOCK = { timeout: 120_000 };

// One at a time: each test names its own npm start record in the environment.
describe("with npm start running (its record names its state)", BLOCK, () => {
  /** An npm start record naming `persistTo`, written by this (live) process. */
  const recordRunning = (persistTo: string) => {
    const file = path.join(states.dir, `npm-start-${path.basename(persistTo)}.json`);
    writeFileSync(file, JSON.stringify({ pid: process.pid, persistTo, ports: { production: 1, sandbox: 2 } }));
    vi.stubEnv("NPM_START_FILE", file);
  };
  afterAll(() => vi.unstubAllEnvs());

  it("without --persist-to, publishes to the state npm start serves and says so", async () => {
    const state = states.stateDir("running");
    recordRunning(state);
    const run = await publish(states.a.releaseDir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`npm start (pid ${process.pid}) is running over ${state}: acting on that state`);
    expect((await currentOf(state))?.release_id).toBe(states.a.manifest.release_id);
  });

  it("with --persist-to elsewhere, acts there and names both places", async () => {
    const running = states.stateDir("served");
    const other = states.stateDir("elsewhere");
    recordRunning(running);
    const run = await publish(states.b.releaseDir, "--persist-to", other);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`acting on ${other} (--persist-to), not on ${running}, the state npm start`);
    expect((await currentOf(other))?.release_id).toBe(states.b.manifest.release_id);
    expect(await currentOf(running)).toBeNull();
  });

  it("a record whose process is gone is ignored", async () => {
    const file = path.join(states.dir, "npm-start-gone.json");
    writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 17, persistTo: states.stateDir("gone"), ports: {} }));
    vi.stubEnv("NPM_START_FILE", file);
    const list = await rollback("--list", "--persist-to", states.stateDir("gone-list"));
    expect(list.code).toBe(0);
    expect(list.stderr).toBe("");
    expect(list.stdout).toBe(`nothing is published on local production (${states.stateDir("gone-list")}/v3)\n`);
  });
});

describe.concurrent("catalog:publish", BLOCK, () => {
  it("an upload interrupted midway leaves the previous release current; running it again finishes", async () => {
    const { a, b } = states;
    const state = states.copyOf(publishedA(), "interrupted");
    // Part 5 goes missing mid-upload (as if the disk or the connection failed there).
    const part = path.join(b.releaseDir, "parts", "5");
    renameSync(part, `${part}.away`);
    try {
      const failed = await publish(b.releaseDir, "--persist-to", state);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/^catalog:publish: .*cannot read part 5/m);
    } finally {
      renameSync(`${part}.away`, part);
    }
    // Parts 0-4 were uploaded before it stopped (immutable objects, kept for the rerun); current did not move.
    const opened = await openDeploymentStorage({ persistTo: state });
    try {
      const stored = await Promise.all(
        b.manifest.parts.map((entry) =>
          opened.storage.bucket.head(storageKeys.part(hexOf(b.manifest.release_id), entry.index)),
        ),
      );
      expect(stored.map((object) => object !== null)).toEqual(b.manifest.parts.map((entry) => entry.index < 5));
    } finally {
      await opened.dispose();
    }
    expect((await currentOf(state))?.release_id).toBe(a.manifest.release_id);

    const finished = await publish(b.releaseDir, "--persist-to", state);
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).toMatch(
      new RegExp(
        `^published ${b.manifest.release_id} to .*: ${b.manifest.parts.length} parts, ${b.manifest.parts.length - 5} uploaded .*now current \\(was ${a.manifest.release_id}\\)\n$`,
      ),
    );
  });

  it("waits while another process holds the D1 database (npm start's server writing it), then finishes", async () => {
    const { a, b } = states;
    // b current, a kept: publishing a again (part 5 of b goes missing in the test beside this one).
    const state = states.copyOf(publishedAB(), "locked");
    // Another SQLite connection (this process's node:sqlite; workerd is another process) takes the
    // write lock of the state's D1 file and keeps it for 3 s: the publish's first D1 call (its schema
    // check, as it opens the state) and any later one meets SQLITE_BUSY until then.
    const folder = path.join(state, "v3/d1/miniflare-D1DatabaseObject");
    const [file] = readdirSync(folder).filter((name) => /^[0-9a-f]{64}\.sqlite$/.test(name));
    const { DatabaseSync } = await import("node:sqlite");
    const holder = new DatabaseSync(path.join(folder, expectDefined(file, "the state's D1 database file")));
    holder.exec("BEGIN EXCLUSIVE");
    let released = false;
    const release = setTimeout(() => {
      holder.exec("COMMIT");
      holder.close();
      released = true;
    }, 3_000);
    try {
      const run = await publish(a.releaseDir, "--persist-to", state);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(
        new RegExp(`^published ${a.manifest.release_id} .*now current \\(was ${b.manifest.release_id}\\)\n$`),
      );
      expect(released).toBe(true); // it finished after the lock was let go, not around it
    } finally {
      clearTimeout(release);
      if (holder.isOpen) holder.close();
    }
    expect((await currentOf(state))?.release_id).toBe(a.manifest.release_id);
  });

  it("--env sandbox publishes to the sandbox's own bindings, not production's", async () => {
    const state = states.stateDir("sandbox");
    const run = await publish(states.a.releaseDir, "--persist-to", state, "--env", "sandbox");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`to local env sandbox (${state}/v3)`);
    expect((await currentOf(state, "sandbox"))?.release_id).toBe(states.a.manifest.release_id);
    expect(await currentOf(state)).toBeNull();
  });

  it.each([
    [[], "--release <dir> is required"],
    [["--release", "."], "holds no manifest.json"],
    [["--release", "x", "--remote", "--persist-to", "y"], "cannot be combined with --remote"],
    [["--bogus"], "Unknown option '--bogus'"],
  ])("usage error %j → exit 2 with the help, before opening any state", async (args, message) => {
    const run = await runInProcess(catalogPublish.run, args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("Usage: npm run catalog:publish");
    expect(run.stdout).toBe("");
  });

  it("--remote stops before any network call until `npm run deploy` has recorded the namespace ids, saying so", async () => {
    // A copy of wrangler.toml where no deploy ever ran (no .wrangler/deploy next to it).
    const config = path.join(states.stateDir("never-deployed"), "wrangler.toml");
    mkdirSync(path.dirname(config), { recursive: true });
    cpSync("wrangler.toml", config);
    const run = await publish(states.a.releaseDir, "--remote", "--config", config, "--env", "sandbox");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "no Cloudflare namespace id for CATALOG_KV, OAUTH_KV, AUTH_KV of sandbox: run `npm run deploy -- --env sandbox` first",
    );
    expect(run.stderr).toContain(path.join(path.dirname(config), ".wrangler", "deploy", "sandbox.wrangler.json"));
  });
});

describe.concurrent("catalog:rollback", BLOCK, () => {
  it("lists the kept releases with when, how many profiles, how big and which is current; refuses an unknown one", async () => {
    const { a, b } = states;
    const state = states.copyOf(publishedAB(), "rollback");

    const list = await rollback("--list", "--persist-to", state);
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
    const refused = await rollback("--release-id", unknown, "--persist-to", state);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `catalog:rollback: refused on local production (${state}/v3): ${unknown} is not one of the kept earlier releases of this deployment (kept: ${a.manifest.release_id}`,
    );
    expect((await currentOf(state))?.release_id).toBe(b.manifest.release_id);
  });

  it("says which way it moved: back to the older release, then forward to the newer one; again, nothing changes", async () => {
    const { a, b } = states;
    const state = states.copyOf(publishedAB(), "rollback-both-ways");
    const where = `local production (${state}/v3)`;

    const back = await rollback("--release-id", a.manifest.release_id.slice(7), "--persist-to", state);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(
      new RegExp(
        `^rolled back ${escapeRegExp(where)} to the older release ${a.manifest.release_id} \\(published \\S+; was ${b.manifest.release_id}, published \\S+, which stays kept\\)\n$`,
      ),
    );
    expect(await currentOf(state)).toEqual({ release_id: a.manifest.release_id, previous: [b.manifest.release_id] });
    const list = await rollback("--list", "--persist-to", state);
    expect(list.stdout).toMatch(new RegExp(`\\nkept \\(newer\\)\\s+${b.manifest.release_id}`));

    const forward = await rollback("--release-id", b.manifest.release_id, "--persist-to", state);
    expect(forward.code, forward.stderr).toBe(0);
    expect(forward.stdout).toMatch(
      new RegExp(`^rolled forward ${escapeRegExp(where)} to the newer release ${b.manifest.release_id} \\(published `),
    );
    const again = await rollback("--release-id", b.manifest.release_id, "--persist-to", state);
    expect(again).toEqual({
      code: 0,
      stdout: `${b.manifest.release_id} is already current on ${where}: nothing changed\n`,
      stderr: "",
    });
    expect((await currentOf(state))?.release_id).toBe(b.manifest.release_id);
  });

  it("on a state where nothing is published, a rollback is refused", async () => {
    const state = states.stateDir("empty");
    const refused = await rollback("--release-id", states.a.manifest.release_id, "--persist-to", state);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^catalog:rollback: refused on local production .*: /);
    expect(await currentOf(state)).toBeNull();
  });

  it("a usage error: neither --release-id nor --list", async () => {
    const run = await rollback("--persist-to", states.stateDir("no-id"));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--release-id <id> is required (or --list to see the kept releases)");
  });
});
