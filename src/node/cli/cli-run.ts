/**
 * Runs an operator script's main function with the exit-code contract every script follows:
 * 0 done, 1 the work failed (the message says what and why), 2 usage error (message + help).
 */
export class UsageError extends Error {}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** "1 part", "17 parts": summary lines read as sentences. */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

export function runCli(name: string, help: string, main: (argv: string[]) => Promise<number>): void {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(help);
    return;
  }
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const usage =
        error instanceof UsageError || String((error as { code?: unknown })?.code).startsWith("ERR_PARSE_ARGS");
      console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      if (usage) console.error(`\n${help}`);
      process.exitCode = usage ? EXIT.usage : EXIT.failed;
    },
  );
}
