/**
 * Starts the real `wrangler dev` on a free port over a given persisted state directory, waits until
 * it answers HTTP, and stops it (its whole process group) afterwards.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
const WRANGLER_CLI = path.join(REPO_ROOT, "node_modules/wrangler/wrangler-dist/cli.js");
const STARTUP_TIMEOUT_MS = 90_000;

export interface DevServer {
  url: string;
  /** Everything wrangler printed so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

export async function startWranglerDev(options: { persistTo: string; environment?: string }): Promise<DevServer> {
  const port = await freePort();
  const args = [WRANGLER_CLI, "dev", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", options.persistTo, "--inspector-port", "0"];
  if (options.environment) args.push("--env", options.environment);
  // process.execPath is the Node 22 that runs vitest; detached gives wrangler and workerd their own process group.
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const server: DevServer = { url: `http://127.0.0.1:${port}`, log: () => output, stop: () => stopGroup(child) };
  try {
    await waitUntilAnswering(server.url, child);
  } catch (error) {
    await server.stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- wrangler dev output ---\n${output}`);
  }
  return server;
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode} before answering`);
    try {
      await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`wrangler dev did not answer on ${url} within ${STARTUP_TIMEOUT_MS / 1000} s`);
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid, "SIGTERM");
  const killed = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(killed);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
