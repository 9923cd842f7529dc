/**
 * Worker secrets: the names are wrangler.toml's `[secrets] required` of each deployment (wrangler
 * types them into Env and refuses to deploy without them). A deploy sets the ones the worker lacks:
 * a value kept from an earlier deploy, else a new one made by the secret's recipe below.
 * Adding a secret: its name in `required` of every deployment; a line here only if it needs another
 * value than 32 random bytes, or must be kept because someone needs to use it.
 */
import { randomBytes } from "node:crypto";
import { ApiError, type CloudflareApi } from "./cloudflare-api";
import { readKeptSecrets, writeKeptSecrets } from "./deploy-config";
import type { Deployment } from "./deployments";

interface Recipe {
  generate: () => string;
  /** Written to the deployment's kept-secrets file (mode 0600), for the people who must present it. */
  keep: boolean;
  /** What it is for, in messages. */
  use?: string;
}

const randomSecret = () => randomBytes(32).toString("base64url");

const RECIPES: Record<string, Recipe> = {
  OPERATOR_SECRET: {
    generate: randomSecret,
    keep: true,
    use: "the operator API (`npm run operator -- --deployed <url>`)",
  },
};
const DEFAULT_RECIPE: Recipe = { generate: randomSecret, keep: false };

export const recipeOf = (name: string): Recipe => RECIPES[name] ?? DEFAULT_RECIPE;

/** GET …/secrets for a worker that does not exist yet. */
const NO_SUCH_WORKER = 10007;

/** The names of the secrets the worker has now (none before its first deploy). */
export async function workerSecretNames(api: CloudflareApi, workerName: string): Promise<string[]> {
  try {
    const secrets = await api.call<{ name: string }[]>(api.account(`/workers/scripts/${workerName}/secrets`), {
      permission: "Workers Scripts: Read",
      action: `list the secrets of the worker ${workerName}`,
    });
    return secrets.map((secret) => secret.name);
  } catch (error) {
    if (error instanceof ApiError && error.code === NO_SUCH_WORKER) return [];
    throw error;
  }
}

export interface SecretValue {
  name: string;
  value: string;
  /** "kept" reuses the value of the kept-secrets file; "generated" is new. */
  origin: "kept" | "generated";
  /** Replaces a value the worker has (`--rotate-secret`). */
  rotated: boolean;
}

/** A value for each secret to set: the kept one if there is one (unless rotating), else a new one. */
export function valuesFor(names: string[], kept: Record<string, string>, rotate: string[] = []): SecretValue[] {
  return names.map((name) => {
    const rotated = rotate.includes(name);
    const keptValue = rotated ? undefined : kept[name];
    return keptValue
      ? { name, value: keptValue, origin: "kept", rotated }
      : { name, value: recipeOf(name).generate(), origin: "generated", rotated };
  });
}

/**
 * Values for the secrets the worker lacks (and those to rotate). The ones to keep are written to the
 * deployment's kept-secrets file before the upload, so a failed deploy never loses one.
 */
export async function secretsToSet(
  api: CloudflareApi,
  deployment: Deployment,
  options: { deployDir: string; rotate?: string[]; log: (line: string) => void },
): Promise<SecretValue[]> {
  const rotate = options.rotate ?? [];
  const present = (await workerSecretNames(api, deployment.config.name)).filter((name) => !rotate.includes(name));
  const kept = readKeptSecrets(options.deployDir, deployment.name);
  const missing = valuesFor(
    deployment.secrets.filter((name) => !present.includes(name)),
    kept,
    rotate,
  );
  const toKeep = missing.filter((secret) => secret.origin === "generated" && recipeOf(secret.name).keep);
  const file =
    toKeep.length > 0
      ? writeKeptSecrets(options.deployDir, deployment.name, {
          ...kept,
          ...Object.fromEntries(toKeep.map((s) => [s.name, s.value])),
        })
      : undefined;
  for (const name of deployment.secrets) {
    const secret = missing.find((candidate) => candidate.name === name);
    const recipe = recipeOf(name);
    const state = secret?.rotated ? "rotated" : "missing";
    if (!secret) options.log(`secret ${name}: already set`);
    else
      options.log(
        `secret ${name}: ${state}, set from a ${secret.origin === "kept" ? "kept" : "new"} value${recipe.keep ? `; kept in ${file ?? "the kept-secrets file"} (mode 0600) for ${recipe.use}` : ""}`,
      );
  }
  return missing;
}
