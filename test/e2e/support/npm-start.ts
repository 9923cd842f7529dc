/**
 * `npm start` as a developer runs it, for the e2e tests: one Node process with tsx as an import
 * hook (so Ctrl-C reaches start.ts itself), its output collected, and each printed line run in
 * bash as pasted.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expectDefined } from "../../../src/common/expect";
import { REPO_ROOT } from "./wrangler-dev";
import { runProcess, type ScriptRun } from "./scripts";

export interface NpmStart {
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** The welcome screen, once printed (from "Readiness Catalog API is running" to the request log). */
  welcome(): string;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Ctrl-C; resolves with start's exit code. */
  interrupt(): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Starts `npm start -- <args>` and resolves once the welcome screen is printed. Its record for the
 * other CLIs (src/node/start/running-instance.ts) goes to a file of this test process, which the CLIs
 * this test runs read too, so that no other test's CLI finds this instance.
 */
export async function npmStart(args: string[]): Promise<NpmStart> {
  process.env.NPM_START_FILE ??= path.join(mkdtempSync(path.join(tmpdir(), "npm-start-record-")), "npm-start.json");
  const child = spawn(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "scripts/start.ts"), ...args], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: process.env,
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const waitForOutput = async (pattern: RegExp, timeoutMs = 150_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(output);
      if (match) return match;
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`npm start never printed ${pattern}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const interrupt = () => {
    if (child.exitCode === null && child.signalCode === null)
      process.kill(-expectDefined(child.pid, "the pid of npm start"), "SIGINT");
    return exited;
  };
  try {
    await waitForOutput(/^Request log:$/m);
  } catch (error) {
    await interrupt();
    throw error;
  }
  return {
    output: () => output,
    welcome: () =>
      printedValue(output, /Readiness Catalog API is running[\s\S]*?(?=\nRequest log:)/, "the welcome screen", 0),
    waitForOutput,
    interrupt,
    exited,
  };
}

export interface Shell extends ScriptRun {
  /** The exit status of every curl the line ran. */
  curls: number[];
}

/** Runs one printed line in bash, as pasted; curl fails on an HTTP error and reports its status. */
export async function bash(line: string): Promise<Shell> {
  const failOnHttpError =
    'curl() { command curl --fail-with-body -sS "$@"; local s=$?; echo "curl-exit $s" >&2; return $s; }';
  const run = await runProcess("bash", ["-c", `${failOnHttpError}\n${line}`]);
  return { ...run, curls: [...run.stderr.matchAll(/curl-exit (\d+)/g)].map((m) => Number(m[1])) };
}

/**
 * Group `group` (0: the whole match) of the first match of `pattern` in `screen`, what npm start
 * printed; an error naming `what` when npm start did not print it.
 */
export function printedValue(screen: string, pattern: RegExp, what: string, group = 1): string {
  return expectDefined(pattern.exec(screen)?.[group], `${what} printed by npm start`);
}

/** The lines of `text` that start with `  curl ` or `  npm `: commands printed to be pasted. */
/** The printed command lines of `command`, with the environment they set first (CATALOG_API_KEY=… npm …). */
export const printedCommands = (text: string, command: "curl" | "npm") =>
  text
    .split("\n")
    .filter((line) => new RegExp(`^ {2}(?:[A-Z_]+=\\S+ )*${command} `).test(line))
    .map((line) => line.trim());
