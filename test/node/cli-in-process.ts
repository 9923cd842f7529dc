/**
 * Runs a CLI's command in this process (the `run` of its `cliCommand`, src/node/cli/cli-run.ts, the
 * same contract its door uses): arguments in; exit code, standard output and standard error out, as
 * `runScript` gives them for a child process. Faster than a child (no Node, tsx or import start-up),
 * and V8 coverage sees the code it runs.
 */
import type { CliIo, CliMain } from "../../src/node/cli/cli-run";
import type { ScriptRun } from "../e2e/support/scripts";

export interface CliRun extends ScriptRun {
  code: number;
}

export async function runInProcess(
  command: CliMain,
  argv: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    out: (text) => {
      stdout += `${text}\n`;
    },
    err: (text) => {
      stderr += `${text}\n`;
    },
    stdin: () => options.stdin ?? "",
    env: { ...process.env, ...options.env },
  };
  const code = await command(argv, io);
  return { code, stdout, stderr };
}
