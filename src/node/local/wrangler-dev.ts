/**
 * Runs the real `wrangler dev` as a child process (used by `npm start` and the e2e harness):
 * starts it on a given port and persisted state, waits until it answers HTTP, and stops its whole
 * process group (wrangler and workerd) on request.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { copyDocsAssets } from "./docs-assets.mjs";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
const WRANGLER_CLI = path.join(REPO_ROOT, "node_modules/wrangler/wrangler-dist/cli.js");
const STARTUP_TIMEOUT_MS = 90_000;

export interface WranglerDevOptions {
  /**
   * Default 0: the OS picks a free port as wrangler binds it, and the server's URL is read from
   * wrangler's "Ready on" line. (Choosing a free port beforehand races other processes that bind
   * port 0 meanwhile: the probe would then reach their server, not ours.)
   */
  port?: number;
  /** Like `wrangler dev --persist-to`; default: wrangler's own (.wrangler/state). */
  persistTo?: string;
  environment?: string;
  /** Like `wrangler dev --env-file`: variables and secrets for the worker (e.g. OPERATOR_SECRET). */
  envFile?: string;
  /** Like `wrangler dev --config`: another worker configuration (e.g. the benchmark's floor worker). */
  config?: string;
  onOutput?: (text: string) => void;
}

export interface DevServer {
  url: string;
  /** Resolves with the exit code when wrangler dev exits, for whatever reason. */
  exited: Promise<number | null>;
  /** Everything wrangler printed so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Two workerd processes opening one persisted state at the same moment can fail with SQLITE_BUSY,
 * so servers that share a state directory start one after the other (running side by side is fine).
 */
const startups = new Map<string, Promise<unknown>>();

export function startWranglerDev(options: WranglerDevOptions): Promise<DevServer> {
  const state = path.resolve(REPO_ROOT, options.persistTo ?? ".wrangler/state");
  const started = (startups.get(state) ?? Promise.resolve()).catch(() => undefined).then(() => launch(options));
  startups.set(state, started);
  return started;
}

async function launch(options: WranglerDevOptions): Promise<DevServer> {
  copyDocsAssets(); // wrangler.toml's [assets] directory (the API reference's UI)
  const args = [WRANGLER_CLI, "dev", "--port", String(options.port ?? 0), "--ip", "127.0.0.1", "--inspector-port", "0"];
  // Locally CF-Connecting-IP is the client's own (miniflare keeps it): one address for all (src/worker/limits/ip-throttle.ts).
  args.push("--var", "CLIENT_ADDRESS_SOURCE:local");
  // Local development only: webhooks and OAuth client metadata documents may be at http://127.0.0.1
  // (src/worker/http/outbound/target-url.ts).
  args.push("--var", "WEBHOOK_LOCAL_TARGETS:loopback");
  if (options.persistTo) args.push("--persist-to", options.persistTo);
  if (options.environment) args.push("--env", options.environment);
  if (options.envFile) args.push("--env-file", options.envFile);
  if (options.config) args.push("--config", options.config);
  // process.execPath is the Node 22 running this script; detached gives wrangler and workerd their own process group.
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"] as const,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk;
    options.onOutput?.(chunk.toString());
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = () => stopGroup(child, exited);
  try {
    const url = await waitUntilAnswering(child, () => output);
    return { url, exited, log: () => output, stop };
  } catch (error) {
    await stop();
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n--- wrangler dev output ---\n${output}`,
    );
  }
}

/** wrangler's own announcement of the address it bound: `[wrangler:info] Ready on http://127.0.0.1:PORT`. */
const READY_LINE = /Ready on (http:\/\/127\.0\.0\.1:\d+)/;

/** Waits for the "Ready on" line, then until that address answers HTTP; resolves with the address. */
async function waitUntilAnswering(child: ChildProcess, output: () => string): Promise<string> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode} before answering`);
    const url = READY_LINE.exec(output())?.[1];
    try {
      if (url) {
        await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(2_000) });
        return url;
      }
    } catch {
      // bound but not answering yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`wrangler dev did not answer within ${STARTUP_TIMEOUT_MS / 1000} s`);
}

async function stopGroup(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  const { pid } = child;
  if (child.exitCode !== null || child.signalCode !== null || pid === undefined) return;
  process.kill(-pid, "SIGTERM");
  const kill = setTimeout(() => {
    if (child.exitCode === null) process.kill(-pid, "SIGKILL");
  }, 10_000);
  await exited;
  clearTimeout(kill);
}

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
