/**
 * `npm start` in process, through `start` (what its door runs, with strings for streams and no signals):
 * the whole local setup over a temporary --persist-to and free ports, with the real wrangler dev,
 * local D1 migrations and platform proxy. The door and every command its screen prints are run in
 * test/e2e/start.test.ts; here, what the engine decides: which deployments and ports, what it
 * refuses before doing anything, the record other CLIs find it by, and how it stops.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { type CliIo, UsageError } from "../../src/node/cli/cli-run";
import { wrangler } from "../../src/node/deploy/wrangler-cli";
import { freePort } from "../../src/node/local/wrangler-dev";
import { start } from "../../src/node/start/command";
import { currentOf } from "./published-states";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "start-command-"));
  vi.stubEnv("NPM_START_FILE", path.join(dir, "npm-start.json"));
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

/** Listens on a free port of 127.0.0.1, as another program would. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, server };
}
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

/** Collects what start prints; `until` resolves when a line matching `pattern` was printed. */
function collected() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = {
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    stdin: () => "",
    env: process.env,
  };
  async function until(pattern: RegExp, running: Promise<number>, timeoutMs = 240_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let ended = false;
    void running.finally(() => (ended = true)).catch(() => {});
    while (!stdout.some((line) => pattern.test(line))) {
      if (ended) throw new Error(`start ended before printing ${pattern}:\n${stdout.join("\n")}\n${stderr.join("\n")}`);
      if (Date.now() > deadline) throw new Error(`start printed no ${pattern} in time:\n${stdout.join("\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return { io, stdout, stderr, until };
}

describe("refused before doing anything", () => {
  it.each([
    [["--port", "0"], "--port must be a port number"],
    [["--sandbox-port", "http"], "--sandbox-port must be a port number"],
    [["--oauth-port", "65536"], "--oauth-port must be a port number"],
  ])("%j is a usage error", async (args, message) => {
    const run = start([...args, "--persist-to", path.join(dir, "never")], collected().io);
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow(message);
    expect(existsSync(path.join(dir, "never"))).toBe(false);
  });

  it("a port in use (another npm start?) names it and the flag to choose another", async () => {
    const taken = await occupiedPort();
    try {
      const output = collected();
      const free = await freePort();
      const run = start(
        ["--port", String(free), "--sandbox-port", String(taken.port), "--persist-to", path.join(dir, "never")],
        output.io,
      );
      await expect(run).rejects.toThrow(
        `port ${taken.port} is in use (another npm start?): stop that server, or choose another port with --sandbox-port <n>`,
      );
      expect(output.stdout).toEqual([]);
      expect(existsSync(path.join(dir, "never"))).toBe(false);
    } finally {
      await close(taken.server);
    }
  });
});

describe("--no-sandbox, with the OAuth demo's port taken", () => {
  it("serves production alone, records itself for the other CLIs, says why the OAuth demo did not start, and stops when asked", async () => {
    const persistTo = path.join(dir, "state");
    const port = await freePort();
    const oauth = await occupiedPort();
    const output = collected();
    let stopAll: (() => void) | undefined;
    const running = start(
      ["--no-sandbox", "--port", String(port), "--oauth-port", String(oauth.port), "--persist-to", persistTo],
      output.io,
      { onStop: (stop) => (stopAll = stop) },
    );
    try {
      await output.until(/^\nRequest log:$/, running);
      const screen = output.stdout.join("\n");
      expect(screen).toMatch(/^built sha256:[0-9a-f]{64}: 26 profiles, 1 part \(dist\/[0-9a-f]{64}\)$/m);
      expect(screen).toMatch(/^production: D1 schema: \d+ migrations? applied$/m);
      expect(screen).toMatch(/^production: published sha256:[0-9a-f]{64} \(the sample\)$/m);
      expect(screen).not.toMatch(/^sandbox/m);
      expect(screen).toContain(`  production  http://localhost:${port}  (live keys)`);
      expect(screen).not.toContain("(test keys)");
      expect(screen).toContain(`OAuth demo not started: `);
      expect(screen).toContain("(the API is up; try --oauth-port <another port>)");
      expect(screen).toContain(` --port=${port}   (npm run operator -- --help`);

      // What catalog:publish, keys and operator find when given no --persist-to.
      const record = JSON.parse(readFileSync(path.join(dir, "npm-start.json"), "utf8"));
      expect(record).toEqual({ pid: process.pid, persistTo, ports: { production: port } });
      const served = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      expect(served.status).toBe(200);
      const current = await currentOf(persistTo);
      expect(screen).toContain(`production: published ${current?.release_id} (the sample)`);

      expectDefined(stopAll, "the stop function start hands over as the servers start")();
      expect(await running).toBe(0);
      expect(existsSync(path.join(dir, "npm-start.json"))).toBe(false);
      await expect(fetch(`http://127.0.0.1:${port}/openapi.json`)).rejects.toThrow();
      expect(output.stderr).toEqual([]);
      // start applied the D1 migrations in process: wrangler's own record of them (d1_migrations) agrees.
      const listed = await wrangler(["d1", "migrations", "list", "CATALOG_DB", "--local", "--persist-to", persistTo]);
      expect(listed).toContain("No migrations to apply");
    } finally {
      stopAll?.();
      await running.catch(() => {});
      await close(oauth.server);
    }
  }, 300_000);
});
