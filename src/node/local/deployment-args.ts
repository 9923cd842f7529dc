/**
 * The options every operator script shares to choose a deployment: --env, --remote,
 * --persist-to, --config (parsed with node:util parseArgs).
 */
import { UsageError } from "../cli/cli-run";
import { DEFAULT_PERSIST_TO, type DeploymentOptions } from "./deployment-storage";
import { localStateDir } from "../start/running-instance";

export const DEPLOYMENT_OPTIONS = {
  env: { type: "string" },
  remote: { type: "boolean", default: false },
  "persist-to": { type: "string" },
  config: { type: "string" },
} as const;

export const DEPLOYMENT_HELP = `  --env <name>         Wrangler environment, e.g. sandbox (its own KV and R2). Default: production.
  --remote             Use the real Cloudflare KV namespace and R2 bucket of wrangler.toml, through
                       wrangler's own login (npx wrangler login, or CLOUDFLARE_API_TOKEN).
  --persist-to <dir>   Local state directory, as for wrangler dev --persist-to. Default: the state of a
                       running npm start (said on stderr), else .wrangler/state
  --config <file>      Wrangler configuration. Default: wrangler.toml
  -h, --help           This help.`;

/** `note` says which local state was chosen when an `npm start` runs (the command's `io.err`). */
export function deploymentOptionsOf(
  values: { env?: string; remote?: boolean; "persist-to"?: string; config?: string },
  note: (line: string) => void,
): DeploymentOptions {
  if (values.remote && values["persist-to"])
    throw new UsageError("--persist-to is for local state; it cannot be combined with --remote");
  const persistTo = values.remote ? undefined : localStateDir(values["persist-to"], DEFAULT_PERSIST_TO, note);
  return { environment: values.env, remote: values.remote, persistTo, configPath: values.config };
}
