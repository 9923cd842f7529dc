/**
 * `npm run deploy` run in the test's own process: the engine after its offline checks
 * (deployBundle), fed one bundle built and checked once per worker process, then the command's own
 * report, with what it prints and the exit code it returns. The code is the same for every deploy
 * of the repository's worker; only the settings (wrangler.toml edits, the deployment) differ, and
 * those are read anew each time. The Cloudflare API is the local fake (fake-cloudflare.ts), the one
 * stand-in: Cloudflare is a remote SaaS that cannot run here.
 */
import path from "node:path";
import type { Bundle } from "../../../src/node/deploy/check-bundle";
import { reportDeploy } from "../../../src/node/deploy/command";
import { readDeployment } from "../../../src/node/deploy/deployments";
import { checkedBundle } from "../../../src/node/deploy/dry-run";
import { deployBundle } from "../../../src/node/deploy/run-deploy";
import type { ScriptRun } from "../../e2e/support/scripts";
import { capturedIo } from "../cli-in-process";
import type { FakeCloudflare } from "./fake-cloudflare";
import { REPO_CONFIG, tempDir } from "./fixtures";

/** No `wrangler login` state: the only credential is the fake's token. */
const home = tempDir("deploy-home-");

/** What wrangler and the deploy read from the environment: the fake's API and token, a HOME of no login. */
export const environmentOf = (account: FakeCloudflare, env: Record<string, string> = {}) => ({
  ...account.environment(),
  HOME: home,
  XDG_CONFIG_HOME: home,
  ...env,
});

let shared: Promise<Bundle> | undefined;

/** The production bundle of the repository's wrangler.toml, built and checked (budget, workerd start) once. */
export function sharedBundle(): Promise<Bundle> {
  shared ??= (async () => {
    const deployment = await readDeployment("production", REPO_CONFIG);
    const outDir = path.join(tempDir("deploy-bundle-"), "production");
    const { bundle, problems } = await checkedBundle(deployment, REPO_CONFIG, outDir, () => {});
    if (!bundle || problems.length > 0) throw new Error(`the shared bundle fails its checks: ${problems.join("; ")}`);
    return bundle;
  })();
  return shared;
}

export interface InProcessDeploy {
  account: FakeCloudflare;
  deployDir: string;
  /** The wrangler environment; default production. */
  env?: "sandbox";
  /** Default: the repository's wrangler.toml. */
  config?: string;
  rotate?: string[];
  /** Default: where the fake serves the deployed worker. */
  url?: string;
  /** Added to the environment (e.g. another CLOUDFLARE_API_TOKEN). */
  environment?: Record<string, string>;
}

/** A deploy of the shared bundle; a refusal (not logged in, a missing permission) is thrown, as the engine does. */
export async function deployInProcess(options: InProcessDeploy): Promise<ScriptRun> {
  const { account } = options;
  const configPath = options.config ?? REPO_CONFIG;
  const deployment = await readDeployment(options.env ?? "production", configPath);
  const url = options.url ?? (await account.account.workers.edge.urlOf(deployment.config.name));
  const bundle = await sharedBundle();
  account.calls.length = 0;
  const { run, io } = capturedIo();
  const result = await deployBundle(deployment, bundle, {
    configPath,
    deployDir: options.deployDir,
    url,
    rotate: options.rotate,
    env: environmentOf(account, options.environment),
    log: io.err,
  });
  run.code = reportDeploy(deployment, result, io);
  return run;
}
