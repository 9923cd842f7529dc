/**
 * One deployment, from nothing or again: the offline checks first (a deployment that would not
 * work changes nothing), then log in, find or create its storage, generate the config with the
 * ids, apply the D1 migrations, set the missing secrets and upload the worker (only when something
 * differs), and smoke-test it. Each step says what it found or changed; a rerun changes nothing and says so.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Bundle } from "./check-bundle";
import type { CloudflareApi } from "./cloudflare-api";
import { connect, credentials } from "./credentials";
import { readKeptSecrets, writeDeployConfig, writeKeptSecrets } from "./deploy-config";
import { readDeployment, type Deployment } from "./deployments";
import { checkedBundle, configProblems } from "./dry-run";
import { applyD1Migrations } from "./d1-migrations";
import { ensureBuckets, ensureD1Databases, ensureKvNamespaces, ensureQueues, type Resource } from "./resources";
import { recipeOf, valuesFor, workerSecretNames, type SecretValue } from "./secrets";
import { smokeTest } from "./smoke";
import { uploadWorker } from "./upload";
import { WRANGLER_VERSION } from "./wrangler-cli";
import { deployedVersion, fingerprint, migrationStatus } from "./worker-version";
import { workersDevUrl } from "./workers-dev";

export interface DeployOptions {
  configPath: string;
  deployDir: string;
  /** Smoke-test this origin instead of the one the deployment answers at. */
  url?: string;
  /** Secrets to replace with new values even though the worker has them. */
  rotate?: string[];
  log: (line: string) => void;
}

export type DeployResult =
  /** The offline checks failed: nothing was done on Cloudflare. */
  | { outcome: "refused"; problems: string[] }
  /** Deployed (or already up to date); `problems` are the smoke test's, none when it passed. */
  | { outcome: "deployed"; changes: string[]; url: string; problems: string[] };

export async function runDeploy(
  deployments: Deployment[],
  deployment: Deployment,
  options: DeployOptions,
): Promise<DeployResult> {
  const work = mkdtempSync(path.join(tmpdir(), "deploy-"));
  try {
    const problems = configProblems(deployments, options.configPath);
    const checked = await checkedBundle(deployment, options.configPath, path.join(work, "bundle"), options.log);
    if (!checked.bundle || problems.length + checked.problems.length > 0)
      return { outcome: "refused", problems: [...problems, ...checked.problems] };
    return await deployChecked(deployment, checked.bundle, work, options);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function deployChecked(
  deployment: Deployment,
  bundle: Bundle,
  work: string,
  options: DeployOptions,
): Promise<DeployResult> {
  const { log } = options;
  const credential = await credentials();
  const api = await connect(credential);
  log(
    `${deployment.name}: worker ${deployment.config.name}, account ${api.accountId} (credential: ${credential.source})`,
  );

  const kv = await ensureKvNamespaces(api, deployment);
  const buckets = await ensureBuckets(api, deployment);
  const databases = await ensureD1Databases(api, deployment);
  const queues = await ensureQueues(api, deployment);
  for (const resource of kv)
    log(
      `${resource.binding}: KV namespace ${resource.name} (${resource.id}) ${resource.created ? "created" : "found"}`,
    );
  for (const resource of buckets)
    log(`${resource.binding}: R2 bucket ${resource.name} ${resource.created ? "created" : "found"}`);
  for (const resource of databases)
    log(`${resource.binding}: D1 database ${resource.name} (${resource.id}) ${resource.created ? "created" : "found"}`);
  for (const resource of queues)
    log(`queue ${resource.name} (${resource.id}) ${resource.created ? "created" : "found"}`);
  for (const limit of deployment.config.ratelimits)
    log(
      `${limit.name}: rate-limit namespace ${limit.namespace_id} (a number chosen in wrangler.toml; nothing to create)`,
    );
  const url = options.url ?? (await workersDevUrl(api, deployment));

  const configFile = await writeDeployConfig(options.configPath, options.deployDir, deployment, kv, databases, url);
  log(`config with the ids: ${configFile}`);
  // Before the upload: the new code may read tables the migrations add.
  const migrated = await applyD1Migrations(configFile, deployment, api.accountId, log);
  const missing = await secretsToSet(api, deployment, options, log);

  const tag = await uploadIfChanged(
    api,
    bundle,
    await readDeployment(deployment.name, configFile),
    configFile,
    missing,
    work,
    log,
  );
  const changes = [
    ...created(kv, buckets, databases, queues),
    ...migrated.map((binding) => `applied the D1 migrations of ${binding}`),
    ...missing.map((secret) => `${secret.rotated ? "rotated" : "set"} ${secret.name}`),
    ...(tag ? [`deployed ${tag}`] : []),
  ];
  // The keyed check makes and revokes a key: a rerun that changed nothing leaves it out.
  const operatorSecret = changes.length > 0 ? operatorSecretOf(options.deployDir, deployment, log) : undefined;
  if (changes.length === 0)
    log("smoke: nothing was deployed, so the keyed check (it makes and revokes a key) is left out");
  return { outcome: "deployed", changes, url, problems: await smokeTest({ url, operatorSecret, log }) };
}

const created = (...groups: Resource[][]) =>
  groups
    .flat()
    .filter((resource) => resource.created)
    .map((resource) => `created ${resource.name}`);

/**
 * Values for the secrets the worker lacks (and those to rotate). The ones to keep are written before
 * the upload, so a failed deploy never loses one.
 */
async function secretsToSet(
  api: CloudflareApi,
  deployment: Deployment,
  options: DeployOptions,
  log: (line: string) => void,
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
    if (!secret) log(`secret ${name}: already set`);
    else
      log(
        `secret ${name}: ${state}, set from a ${secret.origin === "kept" ? "kept" : "new"} value${recipe.keep ? `; kept in ${file ?? "the kept-secrets file"} (mode 0600) for ${recipe.use}` : ""}`,
      );
  }
  return missing;
}

/**
 * Uploads the worker unless the version serving all traffic is this very build (the checked bundle:
 * the ids only change the settings, not the code) and no secret is missing. Returns the new tag.
 */
async function uploadIfChanged(
  api: CloudflareApi,
  bundle: Bundle,
  resolved: Deployment,
  configFile: string,
  missing: SecretValue[],
  work: string,
  log: (line: string) => void,
) {
  const tag = fingerprint(bundle, resolved, WRANGLER_VERSION);
  const deployed = await deployedVersion(api, resolved.config.name);
  log(`Durable Object migrations: ${migrationStatus(resolved, deployed)}`);
  if (deployed?.tag === tag && missing.length === 0) {
    log(`worker: version ${deployed.number ?? deployed.versionId} already is this build (${tag}): not uploaded`);
    return undefined;
  }
  const secretsFile = missing.length > 0 ? path.join(work, "secrets.env") : undefined;
  if (secretsFile)
    writeFileSync(secretsFile, missing.map((secret) => `${secret.name}=${secret.value}\n`).join(""), { mode: 0o600 });
  await uploadWorker({ configFile, deployment: resolved, tag, secretsFile, accountId: api.accountId });
  log(
    `worker: uploaded and deployed ${tag}${missing.length > 0 ? `, with ${missing.map((secret) => secret.name).join(", ")}` : ""}`,
  );
  return tag;
}

function operatorSecretOf(deployDir: string, deployment: Deployment, log: (line: string) => void): string | undefined {
  const secret = readKeptSecrets(deployDir, deployment.name).OPERATOR_SECRET ?? process.env.OPERATOR_SECRET;
  if (!secret)
    log("smoke: OPERATOR_SECRET is neither kept here nor in $OPERATOR_SECRET, so the keyed check is left out");
  return secret;
}
