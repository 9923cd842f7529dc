/**
 * `npm run catalog:rollback -- --release-id <id> [--env sandbox] [--remote] [--persist-to <dir>]`
 * Points `current` back at one of the kept earlier releases, after verifying its objects.
 */
import { parseArgs } from "node:util";
import { PublishError, readCurrent, rollbackRelease } from "../src/catalog/publish";
import { RollbackRefused } from "../src/catalog/release-pointer";
import { EXIT, runCli, UsageError } from "./cli-run";
import { DEPLOYMENT_HELP, DEPLOYMENT_OPTIONS, deploymentOptionsOf } from "./deployment-args";
import { openDeploymentStorage } from "./deployment-storage";
import { phaseProgress } from "./transfer-progress";

const HELP = `Usage: npm run catalog:rollback -- --release-id <id> [options]

Points KV "current" back at an earlier release. Only the releases kept in "current.previous" (the
last 5 before the current one) are accepted; each of their parts is verified in R2 first. Clients
that already hold pinned part URLs of any release keep downloading undisturbed.

  --release-id <id>    sha256:<64 hex> (or the bare hex) of a kept earlier release.
  --list               Print the current release and the kept earlier ones, change nothing.
${DEPLOYMENT_HELP}

Exit codes: 0 rolled back (or already current), 1 refused or failed (current unchanged), 2 usage error.`;

const RELEASE_ID = /^(sha256:)?([0-9a-f]{64})$/;

runCli("catalog:rollback", HELP, async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: { ...DEPLOYMENT_OPTIONS, "release-id": { type: "string" }, list: { type: "boolean", default: false } },
  });
  const deployment = deploymentOptionsOf(values);
  const given = values["release-id"];
  if (!values.list && !given) throw new UsageError("--release-id <id> is required (or --list to see the kept releases)");
  const match = given === undefined ? null : RELEASE_ID.exec(given);
  if (given !== undefined && !match) throw new UsageError(`--release-id "${given}" is not a release id: expected sha256: followed by 64 lowercase hex digits`);

  const opened = await openDeploymentStorage(deployment);
  const progress = phaseProgress();
  try {
    if (values.list) {
      const current = await readCurrent(opened.storage.kv);
      if (!current) console.log(`nothing is published on ${opened.where}`);
      else console.log([`current: ${current.release_id}`, ...current.previous.map((id) => `kept:    ${id}`)].join("\n"));
      return EXIT.ok;
    }
    const releaseId = `sha256:${match![2]}`;
    const result = await rollbackRelease(opened.storage, releaseId, { onProgress: progress.report });
    progress.stop();
    console.log(
      result.pointer_flipped
        ? `rolled back ${opened.where} to ${result.release_id} (was ${result.previous_release_id})`
        : `${result.release_id} is already current on ${opened.where}: nothing changed`,
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof RollbackRefused || error instanceof PublishError) {
      console.error(`catalog:rollback: refused on ${opened.where}: ${error.message}`);
      return EXIT.failed;
    }
    throw error;
  } finally {
    progress.stop();
    await opened.dispose();
  }
});
