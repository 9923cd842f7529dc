/**
 * Runs the project's own wrangler (node_modules, with the Node running this script) as a child
 * process and collects what it prints, for the steps wrangler does best: bundling and uploading.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const WRANGLER_DIR = path.resolve(import.meta.dirname, "../../../node_modules/wrangler");
const WRANGLER_BIN = path.join(WRANGLER_DIR, "bin/wrangler.js");
export const WRANGLER_VERSION = (
  JSON.parse(readFileSync(path.join(WRANGLER_DIR, "package.json"), "utf8")) as { version: string }
).version;

export class WranglerFailed extends Error {
  constructor(
    readonly args: string[],
    readonly output: string,
  ) {
    super(`wrangler ${args.join(" ")} failed:\n${lastLines(output, 25)}`);
  }
}

/** Environment variables, as `process.env` holds them. */
export type Environment = Record<string, string | undefined>;

export interface WranglerOptions {
  cwd?: string;
  /** Added to this process's environment. */
  env?: Environment;
}

/** wrangler's combined output; throws WranglerFailed (with its last lines) on a non-zero exit. */
export function wrangler(args: string[], options: WranglerOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER_BIN, ...args], {
      cwd: options.cwd ?? process.cwd(),
      stdio: ["ignore", "pipe", "pipe"],
      // No telemetry, no colour codes in what is shown or parsed, never an interactive prompt.
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", FORCE_COLOR: "0", CI: "true", ...options.env },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(output) : reject(new WranglerFailed(args, output))));
  });
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}
