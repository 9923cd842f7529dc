/**
 * `npm run catalog:publish -- --release <dir> [--env sandbox] [--remote] [--persist-to <dir>]`
 * Uploads a built release and makes it current (src/node/catalog/publish.ts does the work).
 */
import { parseArgs } from "node:util";
import { publishProgress, publishRelease, type PublishProgress } from "./publish";
import { type CliIo, cliCommand, count, EXIT, UsageError } from "../cli/cli-run";
import { DEPLOYMENT_HELP, DEPLOYMENT_OPTIONS, deploymentOptionsOf } from "../local/deployment-args";
import { openDeploymentStorage } from "../local/deployment-storage";
import { onInterrupt } from "../cli/interrupt";
import { publishTracker } from "./publish-interrupted";
import { openReleaseDir } from "./release-dir";

const HELP = `Usage: npm run catalog:publish -- --release <dir> [options]

Publishes a release built by npm run catalog:build: uploads its parts and index segments to R2
(create-only, with their sha256 so R2 verifies them), writes its manifest to KV and R2, verifies
every object, loads its query rows into D1 (CATALOG_DB), and only then points KV "current" at it. Interrupted at any point, the previous release is still served; run
it again to finish. Publishing an already-current release changes nothing.

  --release <dir>      The release directory, dist/<hex> (or a --out directory holding one release).
${DEPLOYMENT_HELP}

Exit codes: 0 published (or already current), 1 publish failed (current unchanged), 2 usage error.`;

/** `npm run catalog:publish` (scripts/catalog-publish.ts): its door, and its run in process. */
export const catalogPublish = cliCommand("catalog:publish", HELP, publishMain);

async function publishMain(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...DEPLOYMENT_OPTIONS, release: { type: "string" } } });
  if (!values.release)
    throw new UsageError("--release <dir> is required (a directory written by npm run catalog:build)");
  const deployment = deploymentOptionsOf(values, io.err);
  const source = openReleaseDir(values.release);

  const progress = publishProgress();
  const tracker = publishTracker(String((source.manifest as { release_id?: unknown }).release_id ?? values.release));
  const stopListening = onInterrupt("catalog:publish", tracker.describe, progress.stop);
  const onProgress = (event: PublishProgress) => {
    tracker.observe(event);
    progress.report(event);
  };
  try {
    const opened = await openDeploymentStorage(deployment);
    try {
      const result = await publishRelease(opened.storage, source, { onProgress });
      progress.stop();
      const transfer =
        `${count(result.parts, "part")}, ${result.parts_uploaded} uploaded (${result.bytes_uploaded} bytes); ` +
        `index: ${count(result.index_segments, "segment")}, ${result.index_segments_uploaded} uploaded; ` +
        `query rows: ${result.query_rows_loaded} loaded`;
      io.out(
        result.pointer_flipped
          ? `published ${result.release_id} to ${opened.where}: ${transfer}; now current${result.previous_release_id ? ` (was ${result.previous_release_id})` : ""}`
          : `${result.release_id} is already current on ${opened.where}: nothing changed (${count(result.parts, "part")} verified)`,
      );
      return EXIT.ok;
    } finally {
      progress.stop();
      await opened.dispose();
    }
  } finally {
    stopListening();
  }
}
