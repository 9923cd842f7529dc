/**
 * Runs an operator script's main function with the exit-code contract every script follows:
 * 0 done, 1 the work failed (the message says what and why), 2 usage error (message + help).
 * `cliCommand` gives a command both ways in: `run`, that contract as a function (arguments and
 * streams in, exit code out), which tests call in process, and `door`, the same with the process's
 * own arguments and streams, which its script in scripts/ calls.
 */
import { readFileSync } from "node:fs";

export class UsageError extends Error {}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/**
 * The option `--name`'s `value` as an http(s) URL, or a UsageError naming the option. Checked up
 * front: "localhost:8787" parses as a URL of scheme "localhost:", which fetch would refuse (or a
 * client retry) only later, with a message that names nothing.
 */
export function httpUrlOption(name: string, value: string): URL {
  const example = "(e.g. http://localhost:8787)";
  if (!URL.canParse(value)) throw new UsageError(`--${name} "${value}" is not a URL ${example}`);
  const url = new URL(value);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`--${name} "${value}" is not an http:// or https:// URL ${example}`);
  return url;
}

/** "1 part", "17 parts": summary lines read as sentences. */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** What a command reads and writes besides its arguments: the process's own, or a test's. */
export interface CliIo {
  /** A line (or lines) on standard output: results. */
  out(text: string): void;
  /** A line (or lines) on standard error: progress, warnings, errors. */
  err(text: string): void;
  /** Standard input, read whole (e.g. a password given as `-`). */
  stdin(): string;
  /** The environment variables (e.g. $OPERATOR_SECRET). */
  env: Readonly<Record<string, string | undefined>>;
}

export const PROCESS_IO: CliIo = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  stdin: () => readFileSync(0, "utf8"),
  env: process.env,
};

export type CliMain = (argv: string[], io: CliIo) => Promise<number>;

/** The command's exit code for these arguments; usage and failures are reported on `io.err`. */
async function runCommand(name: string, help: string, argv: string[], main: CliMain, io: CliIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.out(help);
    return EXIT.ok;
  }
  try {
    return await main(argv, io);
  } catch (error) {
    const usage =
      error instanceof UsageError || String((error as { code?: unknown })?.code).startsWith("ERR_PARSE_ARGS");
    io.err(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    if (usage) io.err(`\n${help}`);
    return usage ? EXIT.usage : EXIT.failed;
  }
}

/** The door: the process's arguments and streams; its exit code becomes the process's. */
function runCli(name: string, help: string, main: CliMain): void {
  void runCommand(name, help, process.argv.slice(2), main, PROCESS_IO).then((code) => {
    process.exitCode = code;
  });
}

/** A command's two ways in: `run` in process (tests call it), `door` for its script in scripts/. */
export function cliCommand(name: string, help: string, main: CliMain) {
  return {
    run: (argv: string[], io: CliIo) => runCommand(name, help, argv, main, io),
    door: () => runCli(name, help, main),
  };
}
