/**
 * Runs the project's CLIs (npm run catalog:*) as a user would, with the Node 22 that runs the tests,
 * and captures exit code and output. Every e2e request and CLI call goes through this module or
 * http.ts, so what every call must carry (e.g. an API key) is added in one place.
 */
import { spawn } from "node:child_process";
import { packageCommand, packageScripts } from "../../../bench/measure";
import { apiKeyFor } from "./api-key";
import { REPO_ROOT } from "./wrangler-dev";

/**
 * The command `npm run` runs for `scripts/<script>` (package.json's `node --import tsx scripts/…`,
 * its Node flags included), with the Node that runs the tests, from the repository: one process, as
 * for a user. (The tsx CLI would add a parent that relays signals to the script and SIGKILLs it when
 * it does not acknowledge one within 60 ms, which a busy machine misses.)
 */
export function scriptCommand(script: string): { command: string; args: string[] } {
  const name = Object.entries(packageScripts()).find(([, line]) => line.endsWith(` scripts/${script}`))?.[0];
  if (!name) throw new Error(`no npm script runs scripts/${script}`);
  return { command: process.execPath, args: packageCommand(name) };
}

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `stdin` is written to the script's standard input, which is then closed (answers to prompts). */
export function runScript(
  script: string,
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<ScriptRun> {
  const { command, args: scriptArgs } = scriptCommand(script);
  return runProcess(command, [...scriptArgs, ...args], options);
}

/** Any command, in `cwd` (the repository by default), without colours; its exit code and output. */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; stdin?: string } = {},
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, ...options.env, NO_COLOR: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}

/** `npm run catalog:pull` against a running server. */
export function pullCatalog(baseUrl: string, out: string): Promise<ScriptRun> {
  const key = apiKeyFor(baseUrl);
  return runScript(
    "catalog-pull.ts",
    ["--base-url", baseUrl, "--out", out],
    key ? { env: { CATALOG_API_KEY: key } } : {},
  );
}
