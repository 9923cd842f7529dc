/**
 * The password of `npm run operator -- accounts create`: from `--password-file <path|->` or
 * $ACCOUNT_PASSWORD, never the command line (src/node/cli/secret-option.ts says why).
 */
import { type CliIo, UsageError } from "../cli/cli-run";
import { readSecret } from "../cli/secret-option";

const PASSWORD_SOURCE = {
  command: "operator",
  envName: "ACCOUNT_PASSWORD",
  fileOption: "password-file",
  deprecatedOption: "password",
};

/** The new account's password: --password-file, $ACCOUNT_PASSWORD, or (deprecated) --password. */
export function accountPassword(values: { password?: string; "password-file"?: string }, io: CliIo): string {
  // `--password -` was always standard input, which no one else sees: it stays, without a warning.
  const stdin = values.password === "-";
  const given = { file: stdin ? "-" : values["password-file"], deprecated: stdin ? undefined : values.password };
  if (stdin && values["password-file"] !== undefined)
    throw new UsageError("--password-file and --password exclude each other");
  const password = readSecret(PASSWORD_SOURCE, given, io);
  if (password === undefined)
    throw new UsageError("the password is required: --password-file <path|-> or $ACCOUNT_PASSWORD");
  return password;
}
