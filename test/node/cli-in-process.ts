/**
 * Runs a CLI's command in this process (the `run` of its `cliCommand`, src/node/cli/cli-run.ts, the
 * same contract its door uses): arguments in; exit code, standard output and standard error out, as
 * `runScript` gives them for a child process. Faster than a child (no Node, tsx or import start-up),
 * and V8 coverage sees the code it runs.
 */
import { expect } from "vitest";
import type { CliIo, CliMain } from "../../src/node/cli/cli-run";
import type { ScriptRun } from "../e2e/support/scripts";

export interface CliRun extends ScriptRun {
  code: number;
}

export interface CliOptions {
  stdin?: string;
  /** Added to (or, with a value of "", emptying) this process's environment. */
  env?: Record<string, string>;
}

/** Streams that collect what a command writes into `run`, line by line, as a process's would be. */
export function capturedIo(options: CliOptions = {}): { run: CliRun; io: CliIo } {
  const run: CliRun = { code: -1, stdout: "", stderr: "" };
  const io: CliIo = {
    out: (text) => {
      run.stdout += `${text}\n`;
    },
    err: (text) => {
      run.stderr += `${text}\n`;
    },
    stdin: () => options.stdin ?? "",
    env: { ...process.env, ...options.env },
  };
  return { run, io };
}

export async function runInProcess(command: CliMain, argv: string[], options: CliOptions = {}): Promise<CliRun> {
  const { run, io } = capturedIo(options);
  run.code = await command(argv, io);
  return run;
}

/** A usage error as every CLI reports it: exit 2, `<name>: <problem>` and then the help on stderr, nothing on stdout. */
export function expectUsageError(run: ScriptRun, name: string, problem: string): void {
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(new RegExp(`^${name}: .+\n\nUsage: npm run ${name} -- `));
  expect(run.stderr).toContain(problem);
  expect(run.stdout).toBe("");
}
