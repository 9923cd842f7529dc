/**
 * `npm run deploy -- [--env sandbox] [--dry-run]`: one deployment of the worker to Cloudflare, from
 * nothing or again, in one command (docs/operations.md "Deploying to Cloudflare").
 */
import { parseArgs } from "node:util";
import { type CliIo, cliCommand, count, EXIT, UsageError } from "../cli/cli-run";
import { MissingPermission } from "./cloudflare-api";
import { NotLoggedIn } from "./credentials";
import { deployDirOf } from "./deploy-config";
import { DEFAULT_CONFIG_PATH, deploymentNamed, readDeployments, type Deployment } from "./deployments";
import { type DryRunOptions, dryRun } from "./dry-run";
import { type DeployResult, runDeploy } from "./run-deploy";

const HELP = `Usage: npm run deploy -- [--env <name>] [--dry-run] [options]

Deploys one deployment (production, or --env sandbox) to Cloudflare: finds or creates its KV
namespaces, R2 bucket, D1 database and queue by name, applies the D1 migrations not yet applied,
sets the Worker secrets it lacks (generating OPERATOR_SECRET), deploys the worker with its Durable
Object migrations, then smoke-tests the deployed URL. Running it
again changes nothing and says so. Logs in through wrangler (npx wrangler login, or
CLOUDFLARE_API_TOKEN + CLOUDFLARE_ACCOUNT_ID).

  --env <name>         The deployment: a wrangler environment, e.g. sandbox. Default: production.
  --dry-run            No account, no network: check every deployment's bindings, Durable Object
                       migrations and isolation, build each bundle, hold it to the size budget and
                       start it in workerd (its global scope must do no I/O). CI runs this.
  --outdir <dir>       With --dry-run: keep the bundles in <dir>/<deployment>.
  --rotate-secret <n>  Replace the Worker secret <n> (e.g. OPERATOR_SECRET) with a new value, kept
                       like the first one; the old value stops working when the deploy is done.
  --url <origin>       Smoke-test this origin instead of the deployment's own (its custom domain,
                       else its workers.dev URL).
  --deploy-dir <dir>   Where the generated deploy configs and kept secrets go. Default: .wrangler/deploy
                       next to the wrangler configuration.
  --config <file>      Wrangler configuration. Default: wrangler.toml
  -h, --help           This help.

Exit codes: 0 deployed, already up to date, or dry run passed; 1 failed (the message says what and
why); 2 usage error.`;

/** What the command prints: `out` for the summary line only, `err` for progress and failures. */
type CommandOutput = Pick<CliIo, "out" | "err">;

/** `npm run deploy`: `deploy.run(argv, io)` in process (the credential and account read from `io.env`), `deploy.door()` for scripts/deploy.ts. */
export const deploy = cliCommand("deploy", HELP, deployMain);

/** The command's work: its exit code, or a UsageError for arguments it refuses. */
async function deployMain(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      env: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      outdir: { type: "string" },
      url: { type: "string" },
      "rotate-secret": { type: "string", multiple: true },
      "deploy-dir": { type: "string" },
      config: { type: "string" },
    },
  });
  const configPath = values.config ?? DEFAULT_CONFIG_PATH;
  const deployments = await readDeployments(configPath);
  const deployment = deploymentNamed(deployments, values.env);
  if (values["dry-run"])
    return checkOffline(deployments, { configPath, outDir: values.outdir, env: io.env, log: io.err }, io);

  const rotate = values["rotate-secret"] ?? [];
  const unknown = rotate.filter((name) => !deployment.secrets.includes(name));
  if (unknown.length > 0)
    throw new UsageError(
      `--rotate-secret ${unknown.join(", ")}: ${deployment.name}'s secrets are ${deployment.secrets.join(", ") || "none"}`,
    );
  try {
    const result = await runDeploy(deployments, deployment, {
      configPath,
      deployDir: values["deploy-dir"] ?? deployDirOf(configPath),
      url: values.url,
      rotate,
      env: io.env,
      log: io.err,
    });
    return reportDeploy(deployment, result, io);
  } catch (error) {
    if (!(error instanceof NotLoggedIn || error instanceof MissingPermission)) throw error;
    io.err(`deploy: ${error.message}`);
    return EXIT.failed;
  }
}

/** The last words of a deploy (what changed, or why it failed) and its exit code. */
export function reportDeploy(deployment: Deployment, result: DeployResult, output: CommandOutput): number {
  if (result.outcome === "refused") return failed(`${deployment.name} was not deployed`, result.problems, output);
  if (result.problems.length > 0)
    return failed(`${deployment.name} is deployed, but its smoke test failed`, result.problems, output);
  output.out(
    result.changes.length === 0
      ? `${deployment.name} is up to date at ${result.url}: nothing changed`
      : `deployed ${deployment.name} to ${result.url}: ${result.changes.join(", ")}`,
  );
  return EXIT.ok;
}

async function checkOffline(deployments: Deployment[], options: DryRunOptions, output: CommandOutput): Promise<number> {
  const problems = await dryRun(deployments, options);
  if (problems.length > 0) return failed("dry run failed", problems, output);
  output.out(`dry run passed for ${deployments.map((d) => d.name).join(" and ")}: nothing was deployed`);
  return EXIT.ok;
}

function failed(what: string, problems: string[], output: CommandOutput): number {
  output.err(
    `deploy: ${what}, ${count(problems.length, "problem")}:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`,
  );
  return EXIT.failed;
}
