/**
 * Where a CLI takes a secret from: an environment variable (e.g. $CATALOG_API_KEY) or a file
 * (`--key-file <path>`; `-` is standard input), never its command line, which npm echoes, `ps` shows
 * to every user of the machine and the shell keeps in its history. The command-line option a CLI had
 * before still works for one release, with a warning on stderr that says why it goes.
 */
import { readFileSync } from "node:fs";
import { type CliIo, UsageError } from "./cli-run";

export interface SecretSource {
  /** The command's name, for the warning. */
  command: string;
  /** The environment variable read when no option names the secret. */
  envName: string;
  /** The option that names a file holding it, without its dashes (e.g. "key-file"). */
  fileOption: string;
  /** The deprecated option that carried the secret itself (e.g. "key"), if the command had one. */
  deprecatedOption?: string;
}

/** The secret, or undefined when none is given; a UsageError when the file cannot be read or is empty. */
export function readSecret(
  source: SecretSource,
  given: { file?: string; deprecated?: string },
  io: CliIo,
): string | undefined {
  if (given.file !== undefined && given.deprecated !== undefined)
    throw new UsageError(`--${source.fileOption} and --${source.deprecatedOption} exclude each other`);
  if (given.deprecated !== undefined) {
    io.err(
      `${source.command}: --${source.deprecatedOption} on the command line is deprecated and goes in the next release: ` +
        `npm echoes it and ps shows it to every user; set $${source.envName} or use --${source.fileOption} <path>`,
    );
    return given.deprecated;
  }
  if (given.file !== undefined) return secretFile(source.fileOption, given.file, io);
  return io.env[source.envName] || undefined;
}

function secretFile(option: string, path: string, io: CliIo): string {
  let text: string;
  try {
    text = path === "-" ? io.stdin() : readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`--${option} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  // The one line a secret is; an editor's or echo's final newline is not part of it.
  const secret = text.replace(/\r?\n$/, "");
  if (!secret) throw new UsageError(`--${option} ${path} is empty`);
  return secret;
}
