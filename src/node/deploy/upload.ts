/**
 * The upload itself is wrangler's: it sends the checked bundle as it is (`--no-bundle`: the code
 * that passed the offline checks, not a second build of the sources) with the bindings of the
 * generated config, applies the Durable Object migrations after the worker's last applied tag and
 * enables the workers.dev route. A permission the token lacks shows in wrangler's output as
 * Cloudflare's error code 10000; it is named like every other missing permission.
 */
import { MissingPermission } from "./cloudflare-api";
import type { Deployment } from "./deployments";
import { type Environment, wrangler, WranglerFailed } from "./wrangler-cli";

export interface Upload {
  /** The checked bundle's entry module (check-bundle.ts). */
  main: string;
  configFile: string;
  deployment: Deployment;
  /** The build's fingerprint, kept as the version's tag. */
  tag: string;
  /** Missing secrets to set with this upload (dotenv). */
  secretsFile?: string;
  accountId: string;
  /** Added to wrangler's environment (the credential and API base URL of the deploy). */
  env?: Environment;
}

export async function uploadWorker(upload: Upload): Promise<string> {
  const args = [
    "deploy",
    upload.main,
    "--no-bundle",
    "--config",
    upload.configFile,
    "--env",
    upload.deployment.wranglerEnv,
    "--tag",
    upload.tag,
    "--message",
    "npm run deploy",
  ];
  if (upload.secretsFile) args.push("--secrets-file", upload.secretsFile);
  try {
    return await wrangler(args, { env: { ...upload.env, CLOUDFLARE_ACCOUNT_ID: upload.accountId } });
  } catch (error) {
    if (error instanceof WranglerFailed && /\[code: 10000\]/.test(error.output)) {
      throw new MissingPermission(permissionFor(error.output), `upload the worker ${upload.deployment.config.name}`);
    }
    throw error;
  }
}

/** The permission of the API path wrangler names in its error ("A request to the Cloudflare API (/accounts/…) failed"). */
function permissionFor(output: string): string {
  const failed = /A request to the Cloudflare API \(([^)]*)\) failed/.exec(output)?.[1] ?? "";
  if (failed.includes("/storage/kv/")) return "Workers KV Storage: Edit";
  if (failed.includes("/r2/")) return "Workers R2 Storage: Edit";
  if (failed.includes("/queues")) return "Queues: Edit";
  if (failed.includes("/d1/")) return "D1: Edit";
  return "Workers Scripts: Edit";
}
