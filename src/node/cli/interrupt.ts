/**
 * What a long command says when it is interrupted (Ctrl-C, or SIGTERM from a CI runner): what was
 * left and what to do, then it exits as a shell expects of a process ended by that signal
 * (128 + signal number: 130 for SIGINT, 143 for SIGTERM).
 */
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type HandledSignal = keyof typeof EXIT_CODES;

/** What an interruption does to the process: the process's own, or a test's. */
export interface InterruptEffects {
  /** Writes to standard error. */
  write(text: string): void;
  exit(code: number): void;
}

const PROCESS_EFFECTS: InterruptEffects = {
  write: (text) => process.stderr.write(text),
  exit: (code) => process.exit(code),
};

/**
 * Until the returned function is called, SIGINT and SIGTERM run `before` (e.g. stop a progress
 * bar), print `name: interrupted (…): <what()>` on stderr and exit. Listeners registered earlier
 * (the build's removal of its temporary directory) run first.
 */
export function onInterrupt(
  name: string,
  what: () => string,
  before: () => void = () => {},
  effects: InterruptEffects = PROCESS_EFFECTS,
): () => void {
  const handler = (signal: HandledSignal) => {
    before();
    effects.write(`\n${name}: interrupted (${signal === "SIGINT" ? "Ctrl-C" : signal}): ${what()}\n`);
    effects.exit(EXIT_CODES[signal]);
  };
  process.on("SIGINT", handler).on("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler).off("SIGTERM", handler);
  };
}
