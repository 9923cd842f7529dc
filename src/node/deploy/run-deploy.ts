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
import { connect, type Credentials, credentials } from "./credentials";
import { readKeptSecrets, writeDeployConfig } from "./deploy-config";
import { readDeployment, type Deployment } from "./deployments";
import { checkedBundle, configProblems } from "./dry-run";
import { applyD1Migrations } from "./d1-migrations";
import { ensureBuckets, ensureD1Databases, ensureKvNamespaces, ensureQueues, type Resource } from "./resources";
import { secretsToSet, type SecretValue } from "./secrets";
import { smokeTest } from "./smoke";
import { writeRegistryEntry } from "./server-json";
import { uploadWorker } from "./upload";
import { type Environment, WRANGLER_VERSION } from "./wrangler-cli";
import { deployedVersion, fingerprint, migrationStatus } from "./worker-version";
import { workersDevUrl } from "./workers-dev";

export interface DeployOptions {
  configPath: string;
  deployDir: string;
  /** Smoke-test this origin instead of the one the deployment answers at. */
  url?: string;
  /** Secrets to replace with new values even though the worker has them. */
  rotate?: string[];
  /**
   * Where the credential, the account and the API's base URL are read (CLOUDFLARE_API_TOKEN,
   * CLOUDFLARE_ACCOUNT_ID, CLOUDFLARE_API_BASE_URL, OPERATOR_SECRET), and what wrangler runs with.
   * Default: this process's environment.
   */
  env?: Environment;
  log: (line: string) => void;
  /** The credential already read (runDeploy reads it before the offline checks); default: read when needed. */
  credential?: Credentials;
}

export type DeployResult =
  /** The offline checks failed: nothing was done on Cloudflare. */
  { outcome: "refused"; problems: string[] } | Deployed;

/** Deployed (or already up to date); `problems` are the smoke test's, none when it passed. */
export type Deployed = { outcome: "deployed"; changes: string[]; url: string; problems: string[] };

export async function runDeploy(
  deployments: Deployment[],
  deployment: Deployment,
  options: DeployOptions,
): Promise<DeployResult> {
  // Who deploys, first: without a credential the command says so at once, not after the checks'
  // build and workerd start.
  const credential = await credentials(options.env);
  const work = mkdtempSync(path.join(tmpdir(), "deploy-"));
  try {
    const problems = configProblems(deployments, options.configPath);
    const bundleDir = path.join(work, "bundle");
    const checked = await checkedBundle(deployment, options.configPath, bundleDir, options.log, options.env);
    if (!checked.bundle || problems.length + checked.problems.length > 0)
      return { outcome: "refused", problems: [...problems, ...checked.problems] };
    return await deployBundle(deployment, checked.bundle, { ...options, credential });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What follows the offline checks: `bundle` is the deployment's bundle that passed them. */
export async function deployBundle(deployment: Deployment, bundle: Bundle, options: DeployOptions): Promise<Deployed> {
  const work = mkdtempSync(path.join(tmpdir(), "deploy-upload-"));
  try {
    return await deployChecked(deployment, bundle, work, options);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function deployChecked(
  deployment: Deployment,
  bundle: Bundle,
  work: string,
  options: DeployOptions,
): Promise<Deployed> {
  const { log, env = process.env } = options;
  const credential = options.credential ?? (await credentials(env));
  const api = await connect(credential, env);
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
  const migrated = await applyD1Migrations(api, configFile, deployment, databases, log, env);
  const missing = await secretsToSet(api, deployment, options);

  const resolved = await readDeployment(deployment.name, configFile);
  const tag = await uploadIfChanged(api, bundle, resolved, { configFile, missing, work, env, log });
  const changes = [
    ...created(kv, buckets, databases, queues),
    ...migrated.map((binding) => `applied the D1 migrations of ${binding}`),
    ...missing.map((secret) => `${secret.rotated ? "rotated" : "set"} ${secret.name}`),
    ...(tag ? [`deployed ${tag}`] : []),
  ];
  // The keyed check makes and revokes a key: a rerun that changed nothing leaves it out.
  const operatorSecret = changes.length > 0 ? operatorSecretOf(options.deployDir, deployment, env, log) : undefined;
  if (changes.length === 0)
    log("smoke: nothing was deployed, so the keyed check (it makes and revokes a key) is left out");
  const problems = await smokeTest({ url, operatorSecret, log });
  log(`MCP Registry entry (server.json): ${writeRegistryEntry(options.deployDir, deployment.name, url)}`);
  return { outcome: "deployed", changes, url, problems };
}

const created = (...groups: Resource[][]) =>
  groups
    .flat()
    .filter((resource) => resource.created)
    .map((resource) => `created ${resource.name}`);

/**
 * Uploads the worker unless the version serving all traffic is this very build (the checked bundle:
 * the ids only change the settings, not the code) and no secret is missing. Returns the new tag.
 */
async function uploadIfChanged(
  api: CloudflareApi,
  bundle: Bundle,
  resolved: Deployment,
  upload: { configFile: string; missing: SecretValue[]; work: string; env: Environment; log: (line: string) => void },
) {
  const { configFile, missing, work, env, log } = upload;
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
  await uploadWorker({
    main: bundle.main,
    configFile,
    deployment: resolved,
    tag,
    secretsFile,
    accountId: api.accountId,
    env,
  });
  log(
    `worker: uploaded and deployed ${tag}${missing.length > 0 ? `, with ${missing.map((secret) => secret.name).join(", ")}` : ""}`,
  );
  return tag;
}

function operatorSecretOf(
  deployDir: string,
  deployment: Deployment,
  env: Environment,
  log: (line: string) => void,
): string | undefined {
  const secret = readKeptSecrets(deployDir, deployment.name).OPERATOR_SECRET ?? env.OPERATOR_SECRET;
  if (!secret)
    log("smoke: OPERATOR_SECRET is neither kept here nor in $OPERATOR_SECRET, so the keyed check is left out");
  return secret;
}
