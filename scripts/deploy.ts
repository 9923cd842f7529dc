/**
 * `npm run deploy -- --dry-run`: every deployment checked offline, as CI does (README "Deploying to
 * Cloudflare").
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { count, EXIT, runCli } from "./cli-run";
import { DEFAULT_CONFIG_PATH, readDeployments, type Deployment } from "./deploy/deployments";
import { dryRun } from "./deploy/dry-run";

const HELP = `Usage: npm run deploy -- --dry-run [options]

  --dry-run            No account, no network: check every deployment's bindings, Durable Object
                       migrations and isolation, build each bundle, hold it to the size budget and
                       start it in workerd (its global scope must do no I/O). CI runs this.
  --outdir <dir>       Keep the bundles in <dir>/<deployment>.
  --config <file>      Wrangler configuration. Default: wrangler.toml
  -h, --help           This help.

Exit codes: 0 dry run passed; 1 failed (each problem is listed); 2 usage error.`;

runCli("deploy", HELP, async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      "dry-run": { type: "boolean", default: false },
      outdir: { type: "string" },
      config: { type: "string" },
    },
  });
  const configPath = values.config ?? DEFAULT_CONFIG_PATH;
  const deployments = await readDeployments(configPath);
  if (values["dry-run"]) return checkOffline(deployments, configPath, values.outdir);
  console.error("deploy: only --dry-run exists so far");
  return EXIT.usage;
});

async function checkOffline(deployments: Deployment[], configPath: string, outDir: string | undefined): Promise<number> {
  const typesPath = path.join(path.dirname(configPath), "worker-configuration.d.ts");
  const problems = await dryRun(deployments, { configPath, typesPath, outDir, log: (line) => console.log(line) });
  if (problems.length > 0) return failed("dry run failed", problems);
  console.log(`dry run passed for ${deployments.map((d) => d.name).join(" and ")}: nothing was deployed`);
  return EXIT.ok;
}

function failed(what: string, problems: string[]): number {
  console.error(`deploy: ${what}, ${count(problems.length, "problem")}:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
  return EXIT.failed;
}
