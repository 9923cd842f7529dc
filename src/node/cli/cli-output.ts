/**
 * Where a command's lines go: the console when a door (scripts/*.ts) runs it, a collector when a
 * test calls the command's main function in process. `log` is stdout (the result), `error` stderr
 * (what went wrong, notes); each call is one line or block, without its final newline.
 */
export interface CliOutput {
  log(text: string): void;
  error(text: string): void;
}

export const CONSOLE_OUTPUT: CliOutput = {
  log: (text) => console.log(text),
  error: (text) => console.error(text),
};
