/**
 * Everything that can be known about a deployment without an account or a network: the config
 * checks across all deployments, then a deployment's bundle built by wrangler, measured against the
 * budget and started in workerd. `npm run deploy -- --dry-run` runs them for every deployment (CI
 * does); a real deploy runs them for its deployment before it touches Cloudflare.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkBindings, envTypeBindings } from "./check-bindings";
import { BUNDLE_BUDGET_BYTES, buildBundle, checkBudget, checkGlobalScope, kib, type Bundle } from "./check-bundle";
import { checkIsolation } from "./check-isolation";
import { checkMigrations } from "./check-migrations";
import type { Deployment } from "./deployments";
import { type Environment, WranglerFailed } from "./wrangler-cli";

export interface DryRunOptions {
  configPath: string;
  /** Where each deployment's bundle goes (`<outDir>/<deployment>`); default a temporary directory. */
  outDir?: string;
  /** Added to wrangler's environment. */
  env?: Environment;
  log: (line: string) => void;
}

/** The problems found, one sentence each; none means every deployment can be deployed. */
export async function dryRun(deployments: Deployment[], options: DryRunOptions): Promise<string[]> {
  const problems = configProblems(deployments, options.configPath);
  const names = deployments.map((deployment) => deployment.name).join(" and ");
  options.log(
    `config: ${problems.length === 0 ? `bindings, migrations and isolation of ${names} check out` : `${problems.length} problem(s)`}`,
  );
  for (const deployment of deployments)
    for (const line of d1Summary(deployment, options.configPath)) options.log(`${deployment.name}: ${line}`);
  const outDir = options.outDir ?? mkdtempSync(path.join(tmpdir(), "deploy-dry-run-"));
  try {
    for (const deployment of deployments)
      problems.push(
        ...(
          await checkedBundle(
            deployment,
            options.configPath,
            path.join(outDir, deployment.name),
            options.log,
            options.env,
          )
        ).problems,
      );
  } finally {
    if (!options.outDir) rmSync(outDir, { recursive: true, force: true });
  }
  return problems;
}

/**
 * What a deploy will do for each D1 database, said without an account: find or create it by name,
 * then apply the migrations in its directory (wrangler's default `migrations`) not yet applied.
 */
function d1Summary(deployment: Deployment, configPath: string): string[] {
  return (deployment.config.d1_databases ?? []).flatMap(({ binding, database_name, migrations_dir }) => {
    const dir = path.resolve(path.dirname(configPath), migrations_dir ?? "migrations");
    const files = existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith(".sql")) : [];
    return [
      `${binding}: D1 database ${database_name ?? "(no database_name)"}, found or created by name on deploy; ` +
        `${files.length} migration(s) in ${path.relative(path.dirname(configPath), dir) || "."}, the unapplied ones applied before the upload`,
    ];
  });
}

/** The config checks, against the Env type (`worker-configuration.d.ts` next to the config). */
export function configProblems(deployments: Deployment[], configPath: string): string[] {
  const envType = envTypeBindings(
    readFileSync(path.join(path.dirname(configPath), "worker-configuration.d.ts"), "utf8"),
  );
  return [...checkBindings(envType, deployments), ...checkMigrations(deployments), ...checkIsolation(deployments)];
}

/** The deployment's bundle and what is wrong with it (wrangler's refusal to build it included). */
export async function checkedBundle(
  deployment: Deployment,
  configPath: string,
  outDir: string,
  log: (line: string) => void,
  env: Environment = {},
): Promise<{ bundle?: Bundle; problems: string[] }> {
  let bundle: Bundle;
  try {
    bundle = await buildBundle(deployment, configPath, outDir, env);
  } catch (error) {
    if (!(error instanceof WranglerFailed)) throw error;
    log(`${deployment.name}: wrangler could not build the bundle`);
    return { problems: [`${deployment.name}: ${error.message}`] };
  }
  const problems = [...checkBudget(deployment, bundle), ...(await checkGlobalScope(deployment, bundle))];
  const verdict =
    problems.length === 0 ? "starts in workerd with no I/O in global scope" : `${problems.length} problem(s)`;
  log(
    `${deployment.name}: bundle ${kib(bundle.gzipBytes)} compressed (budget ${kib(BUNDLE_BUDGET_BYTES)}), ${verdict}`,
  );
  return { bundle, problems };
}
