/** Runs a measured step in its own process (a fair, fresh peak RSS) and reads its JSON result. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expectDefined } from "../src/common/expect";

export const REPO = fileURLToPath(new URL("..", import.meta.url));
const BIN = path.join(REPO, "node_modules", ".bin");

export interface Measured {
  seconds: number;
  /** CPU time of the whole process (all threads): steadier than wall time on a shared machine. */
  cpuSeconds?: number;
  maxRssBytes: number;
}

/** Runs `command args…` with the repo's Node 22 first on PATH (and `env` added); its last stdout line is JSON. */
export function runMeasured<M extends Measured>(
  command: string,
  args: string[],
  pick: (json: Record<string, unknown>) => M,
  env: Record<string, string> = {},
): M {
  const result = spawnSync(command, args, {
    cwd: REPO,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env, PATH: `${BIN}${path.delimiter}${process.env.PATH}` },
  });
  if (result.status !== 0)
    throw new Error(
      `${path.basename(command)} ${args.join(" ")} exited with ${result.status}: ${result.stderr.trim().slice(-2000)}`,
    );
  const last = result.stdout.trim().split("\n").at(-1) ?? "";
  return pick(JSON.parse(last) as Record<string, unknown>);
}

export const node = path.join(BIN, "node");

/**
 * Node's arguments for `npm run <script>`, read from package.json (paths relative to the repository,
 * where runMeasured runs), so that the bench times exactly what a user runs and never anything else.
 */
export function packageCommand(script: string): string[] {
  const [program, ...args] = (packageScripts()[script] ?? "").split(/\s+/);
  if (program !== "node") throw new Error(`package.json's ${script} runs ${program || "nothing"}, not node`);
  return args;
}

/** package.json's `scripts`: each npm script's command line, by name. */
export const packageScripts = (): Record<string, string> =>
  (JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const [lower, upper] = [sorted[mid - 1], sorted[mid]];
  if (upper === undefined) return Number.NaN; // no values
  return sorted.length % 2 || lower === undefined ? upper : (lower + upper) / 2;
}

/** `combine(a[round], b[round])` for each round of two series measured in the same rounds. */
export function perRound<A, B, R>(a: readonly A[], b: readonly B[], combine: (a: A, b: B) => R): R[] {
  return a.map((value, round) => combine(value, expectDefined(b[round], `round ${round} in both series`)));
}

export const mib = (bytes: number) => Math.round(bytes / 1048576);
