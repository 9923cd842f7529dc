/**
 * The servers the serve and client benchmarks talk to, all run by the real `wrangler dev`
 * (src/node/local/wrangler-dev.ts) on free ports over one persisted state:
 * - "catalog": the real worker (wrangler.toml as it is);
 * - "limiter-switch": bench/workers/limiter-switch.ts under a copy of wrangler.toml (same name,
 *   bindings and Durable Objects, so the same keys and releases);
 * - "ok": bench/workers/ok.ts, the bare Hono floor, with the same compatibility date and flags.
 * Also: an API key for the bench (operator API, with a rate-limit override) and the RSS of the
 * workerd process that runs the worker.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { localOperator } from "../src/node/operator/local-operator";
import { OperatorClient } from "../src/node/operator/operator-client";
import { startWranglerDev, type DevServer } from "../src/node/local/wrangler-dev";
import { REPO } from "./measure";

export type ServerKind = "catalog" | "limiter-switch" | "ok";

export interface BenchServer extends DevServer {
  /** The operator secret this server was started with (an --env-file in the state directory). */
  operatorSecret: string;
}

export async function startBenchServer(kind: ServerKind, persistTo: string, scratch: string): Promise<BenchServer> {
  // The floor has no bindings: its own state, so it never contends with the catalog servers for theirs.
  const state = kind === "ok" ? path.join(scratch, "ok-state") : persistTo;
  const { envFile, operatorSecret } = localOperator(path.join(state, "operator.env"));
  const server = await startWranglerDev({
    persistTo: state,
    envFile,
    config: configFor(kind, scratch),
  });
  return { ...server, operatorSecret };
}

function configFor(kind: ServerKind, scratch: string): string | undefined {
  if (kind === "catalog") return undefined;
  const real = readFileSync(path.join(REPO, "wrangler.toml"), "utf8");
  const file = path.join(scratch, `${kind}.toml`);
  if (kind === "limiter-switch") {
    const entry = path.join(REPO, "bench/workers/limiter-switch.ts");
    // The copy lives in the scratch directory: paths in it (main, [assets] directory) must be absolute.
    const config = real
      .replace(/^main = .*$/m, `main = ${JSON.stringify(entry)}`)
      .replace(/directory = "([^"]*)"/g, (_, dir: string) => `directory = ${JSON.stringify(path.join(REPO, dir))}`);
    if (config === real) throw new Error("wrangler.toml has no top-level `main = …` line to point at the bench worker");
    writeFileSync(file, config);
  } else {
    const line = (key: string) => new RegExp(`^${key} = .*$`, "m").exec(real)?.[0] ?? "";
    const entry = path.join(REPO, "bench/workers/ok.ts");
    writeFileSync(
      file,
      [
        `name = "bench-ok"`,
        `main = ${JSON.stringify(entry)}`,
        line("compatibility_date"),
        line("compatibility_flags"),
        "",
      ].join("\n"),
    );
  }
  return file;
}

/**
 * A fresh account and live key on the server, with a rate-limit override far above any load the
 * bench can make (the default 100 requests/s would turn the load test into a 429 test); `strict`:
 * every request of the key asks its SubjectGuard (no admission leases).
 */
export async function provisionBenchKey(server: BenchServer, options: { strict?: boolean } = {}): Promise<string> {
  const operator = new OperatorClient(server.url, server.operatorSecret);
  const account = await operator.createAccount({
    email: `bench-${randomBytes(6).toString("hex")}@example.test`,
    password: randomBytes(16).toString("hex"),
    name: "Bench",
  });
  const key = await operator.createKey(account.id, { name: "bench" });
  await operator.setLimits(key.id, { rate: 1_000_000, burst: 1_000_000 });
  if (options.strict) await operator.setAdmission(key.id, true);
  return key.secret;
}

/** The workerd process that runs the worker: the sibling of the one listening on the server's port (wrangler's proxy). */
export function workerPid(server: DevServer): number {
  const port = new URL(server.url).port;
  const processes = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((pid) => ({
      pid: Number(pid),
      cmdline: readProc(pid, "cmdline").replaceAll("\0", " "),
      ppid: Number(/^PPid:\s+(\d+)/m.exec(readProc(pid, "status"))?.[1]),
    }))
    .filter((p) => p.cmdline.includes("/workerd serve"));
  const listener = listeningPid(Number(port));
  const proxy = processes.find((p) => p.pid === listener);
  const worker = processes.find((p) => proxy && p.ppid === proxy.ppid && p.pid !== proxy.pid);
  if (!worker) throw new Error(`no workerd process found beside the one listening on port ${port}`);
  return worker.pid;
}

/**
 * The process holding the listening socket of 127.0.0.1:port: its inode from /proc/net/tcp (state
 * 0A is LISTEN), then the process with a descriptor on it. (workerd's command line names the port
 * it was asked for, 0 when the OS picks it, so the command line cannot tell.)
 */
function listeningPid(port: number): number | undefined {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  const inode = readProc("net", "tcp")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[1] === local && fields[3] === "0A")?.[9];
  if (inode === undefined) return undefined;
  const socket = `socket:[${inode}]`;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    if (descriptors(pid).some((fd) => readLink(`/proc/${pid}/fd/${fd}`) === socket)) return Number(pid);
  }
  return undefined;
}

function descriptors(pid: string): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
}

function readLink(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return "";
  }
}

/** Resident set size of a process now (/proc/<pid>/status VmRSS), in bytes. */
export function rssBytes(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(readProc(String(pid), "status"))?.[1];
  if (kib === undefined) throw new Error(`process ${pid} has no VmRSS (has it exited?)`);
  return Number(kib) * 1024;
}

function readProc(pid: string, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return "";
  }
}
