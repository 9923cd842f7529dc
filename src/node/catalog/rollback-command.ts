/**
 * `npm run catalog:rollback -- --release-id <id> [--env sandbox] [--remote] [--persist-to <dir>]`
 * Points `current` back at one of the kept earlier releases, after verifying its objects.
 */
import { parseArgs } from "node:util";
import { expectDefined } from "../../common/expect";
import { PublishError, publishProgress, readCurrent, rollbackRelease } from "./publish";
import { RollbackRefused } from "./release-pointer";
import { type CliIo, cliCommand, EXIT, UsageError } from "../cli/cli-run";
import { DEPLOYMENT_HELP, DEPLOYMENT_OPTIONS, deploymentOptionsOf } from "../local/deployment-args";
import { openDeploymentStorage } from "../local/deployment-storage";
import { direction, keptReleases, releaseTable, type KeptRelease } from "./release-list";

const HELP = `Usage: npm run catalog:rollback -- --release-id <id> [options]

Points KV "current" at a kept release: back to an older one, or forward again to a newer one you
rolled back from (the summary says which way it moved). Only the releases kept in
"current.previous" (the last 5 before the current one) are accepted; each of their parts is
verified in R2 first. Clients that already hold pinned part URLs of any release keep downloading
undisturbed.

  --release-id <id>    sha256:<64 hex> (or the bare hex) of a kept earlier release.
  --list               Print the current release and the kept ones (published at, profiles, size,
                       older or newer than the current one); change nothing.
${DEPLOYMENT_HELP}

Exit codes: 0 rolled back (or already current), 1 refused or failed (current unchanged), 2 usage error.`;

const RELEASE_ID = /^(sha256:)?([0-9a-f]{64})$/;

/** Which way `current` moved: back to an older release, or forward to a newer kept one. */
function movedMessage(
  where: string,
  kept: readonly KeptRelease[],
  result: { release_id: string; previous_release_id: string },
): string {
  const target = kept.find((release) => release.release_id === result.release_id);
  const from = kept.find((release) => release.release_id === result.previous_release_id);
  if (!target || !from) return `rolled back ${where} to ${result.release_id} (was ${result.previous_release_id})`;
  const way = direction(target, from);
  return (
    `rolled ${way} ${where} to the ${way === "back" ? "older" : "newer"} release ${target.release_id} (published ${target.published_at}; ` +
    `was ${from.release_id}, published ${from.published_at}, which stays kept)`
  );
}

/** `npm run catalog:rollback` (scripts/catalog-rollback.ts): its door, and its run in process. */
export const catalogRollback = cliCommand("catalog:rollback", HELP, rollbackMain);

async function rollbackMain(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { ...DEPLOYMENT_OPTIONS, "release-id": { type: "string" }, list: { type: "boolean", default: false } },
  });
  const deployment = deploymentOptionsOf(values, io.err);
  const given = values["release-id"];
  if (!values.list && !given)
    throw new UsageError("--release-id <id> is required (or --list to see the kept releases)");
  const match = given === undefined ? null : RELEASE_ID.exec(given);
  if (given !== undefined && !match)
    throw new UsageError(
      `--release-id "${given}" is not a release id: expected sha256: followed by 64 lowercase hex digits`,
    );

  const opened = await openDeploymentStorage(deployment);
  const progress = publishProgress();
  try {
    const pointer = await readCurrent(opened.storage.kv);
    const kept = pointer ? await keptReleases(opened.storage.kv, pointer) : [];
    if (values.list) {
      io.out(pointer ? releaseTable(kept) : `nothing is published on ${opened.where}`);
      return EXIT.ok;
    }
    const releaseId = `sha256:${expectDefined(match?.[2], "the hex digits of --release-id, checked above")}`;
    const result = await rollbackRelease(opened.storage, releaseId, { onProgress: progress.report });
    progress.stop();
    io.out(
      result.pointer_flipped
        ? movedMessage(opened.where, kept, result)
        : `${result.release_id} is already current on ${opened.where}: nothing changed`,
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof RollbackRefused || error instanceof PublishError) {
      io.err(`catalog:rollback: refused on ${opened.where}: ${error.message}`);
      return EXIT.failed;
    }
    throw error;
  } finally {
    progress.stop();
    await opened.dispose();
  }
}
