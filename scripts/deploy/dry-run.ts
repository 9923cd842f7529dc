/**
 * `npm run deploy -- --dry-run`: everything that can be known about a deployment without an account
 * or a network, for every deployment at once (CI runs it): the config checks, then each bundle built
 * by wrangler, measured against the budget and started in workerd.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkBindings, envTypeBindings } from "./check-bindings";
import { BUNDLE_BUDGET_BYTES, buildBundle, checkBudget, checkGlobalScope, kib, type Bundle } from "./check-bundle";
import { checkIsolation } from "./check-isolation";
import { checkMigrations } from "./check-migrations";
import type { Deployment } from "./deployments";
import { WranglerFailed } from "./wrangler-cli";

export interface DryRunOptions {
  configPath: string;
  /** The generated Env type the code compiles against. */
  typesPath: string;
  /** Where each deployment's bundle goes (`<outDir>/<deployment>`); default a temporary directory. */
  outDir?: string;
  log: (line: string) => void;
}

/** The problems found, one sentence each; none means every deployment can be deployed. */
export async function dryRun(deployments: Deployment[], options: DryRunOptions): Promise<string[]> {
  const problems = [
    ...checkBindings(envTypeBindings(readFileSync(options.typesPath, "utf8")), deployments),
    ...checkMigrations(deployments),
    ...checkIsolation(deployments),
  ];
  options.log(`config: ${problems.length === 0 ? "bindings, migrations and isolation of " + deployments.map((d) => d.name).join(" and ") + " check out" : `${problems.length} problem(s)`}`);
  const outDir = options.outDir ?? mkdtempSync(path.join(tmpdir(), "deploy-dry-run-"));
  try {
    for (const deployment of deployments) {
      const bundle = await built(deployment, options.configPath, path.join(outDir, deployment.name));
      if (typeof bundle === "string") {
        options.log(`${deployment.name}: wrangler could not build the bundle`);
        problems.push(bundle);
        continue;
      }
      const found = [...checkBudget(deployment, bundle), ...(await checkGlobalScope(deployment, bundle))];
      options.log(
        `${deployment.name}: bundle ${kib(bundle.gzipBytes)} compressed (budget ${kib(BUNDLE_BUDGET_BYTES)}), ` +
          (found.length === 0 ? "starts in workerd with no I/O in global scope" : `${found.length} problem(s)`),
      );
      problems.push(...found);
    }
  } finally {
    if (!options.outDir) rmSync(outDir, { recursive: true, force: true });
  }
  return problems;
}

/** The bundle, or wrangler's reason for not building it (e.g. a Durable Object class not exported). */
async function built(deployment: Deployment, configPath: string, outDir: string): Promise<Bundle | string> {
  try {
    return await buildBundle(deployment, configPath, outDir);
  } catch (error) {
    if (error instanceof WranglerFailed) return `${deployment.name}: ${error.message}`;
    throw error;
  }
}
