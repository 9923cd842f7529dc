/**
 * `npm run catalog:pull -- --base-url URL --out file | --sync dir`, the key in $CATALOG_API_KEY or
 * `--key-file`: the reference consumer,
 * a thin CLI over the client package's download() and sync() (packages/client): arguments, output
 * and exit codes.
 */
import { parseArgs } from "node:util";
import {
  CatalogApiError,
  CatalogVerificationError,
  createCatalogClient,
  type SyncResult,
} from "../../../packages/client/src/node.js";
import { type CliIo, cliCommand, count, EXIT, httpUrlOption, UsageError } from "../cli/cli-run";
import { startProgress, type Progress } from "../cli/progress";
import { readSecret } from "../cli/secret-option";

const HELP = `Usage: npm run catalog:pull -- --base-url <url> (--out <file> | --sync <dir>) [--key-file <path>] [--durable]

Fetches GET /v1/releases/current, downloads every part of that release from its pinned URLs
(/v1/releases/<id>/parts/<n>, each one's Link rel=next naming the next), verifies each part against the manifest and
its Content-Digest, the whole document's sha256, artifact_sha256 (the bytes of "data") and the
release id, and only then moves the document to --out. Parts already on disk with the manifest's
sha256 (a previous --out, an interrupted pull's --out.partial-*) are not downloaded again. Retries
429 and 503 after Retry-After and network failures / 5xx with capped exponential backoff; never
retries 401, 403 or other 4xx.

  --base-url <url>   The API, e.g. http://localhost:8787
  --out <file>       Where the verified document is written (replaced atomically).
  --sync <dir>       Keep <dir>/catalog.json current instead: the first run downloads it, later
                     runs fetch only the profiles changed since its release, rebuild the new
                     document, verify it as above and replace the file atomically (a full download
                     when its release is no longer kept or the changes would cost more).
  --key-file <path>  Read the API key from this file (- for standard input). Default: the key in
                     $CATALOG_API_KEY. Sent as Authorization: Bearer <key>.
  --durable          Flush the file to the disk (fsync) before replacing the old one, so it
                     survives an OS crash or power loss (costs a write-back of the whole document).
  -h, --help         This help.

Exit codes: 0 written and verified; 1 verification failed (nothing written); 2 usage error;
3 a request failed for good (status, code and detail printed).`;

const EXIT_REQUEST_FAILED = 3;

const KEY_SOURCE = {
  command: "catalog:pull",
  envName: "CATALOG_API_KEY",
  fileOption: "key-file",
  deprecatedOption: "key",
};

/** `npm run catalog:pull` (scripts/catalog-pull.ts): its door, and its run in process. */
export const catalogPull = cliCommand("catalog:pull", HELP, pullMain);

async function pullMain(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      "base-url": { type: "string" },
      out: { type: "string" },
      sync: { type: "string" },
      "key-file": { type: "string" },
      /** Deprecated: on the command line, npm echoes the key and ps shows it. */
      key: { type: "string" },
      durable: { type: "boolean", default: false },
    },
  });
  const out = values.out;
  const syncDir = values.sync;
  if (!values["base-url"] || (out === undefined) === (syncDir === undefined))
    throw new UsageError("--base-url <url> and one of --out <file> or --sync <dir> are required");
  const baseUrl = httpUrlOption("base-url", values["base-url"]);
  const client = createCatalogClient({
    baseUrl,
    apiKey: readSecret(KEY_SOURCE, { file: values["key-file"], deprecated: values.key }, io),
    onRetry: (event) => io.err(`retrying ${event.url} in ${(event.delayMs / 1000).toFixed(1)} s (${event.reason})`),
  });

  let bar: Progress | undefined;
  try {
    if (syncDir !== undefined) {
      const result = await client.sync(syncDir, {
        durable: values.durable,
        onProgress: (progress) => {
          if (progress.mode !== "full" || !progress.partsDone) return;
          bar ??= startProgress("download parts", "parts", progress.partsTotal);
          bar.update(progress.partsDone);
        },
      });
      bar?.stop();
      io.out(syncSummary(result));
      return EXIT.ok;
    }
    if (out === undefined) throw new UsageError("--out <file> is required");
    const { manifest, partsReused } = await client.download(out, {
      durable: values.durable,
      onProgress: (progress) => {
        if (!progress.partsDone) return;
        bar ??= startProgress("download parts", "parts", progress.partsTotal);
        bar.update(progress.partsDone);
      },
    });
    bar?.stop();
    const reused = partsReused ? `; ${partsReused} already on disk, not downloaded again` : "";
    io.out(
      `pulled ${manifest.release_id} (${count(manifest.profile_count, "profile")}, ${manifest.bytes} bytes in ${count(manifest.parts.length, "part")}${reused}) to ${out}: ` +
        "every part, the document sha256, artifact_sha256 and release_id verified",
    );
    return EXIT.ok;
  } catch (error) {
    bar?.stop();
    if (error instanceof CatalogVerificationError) {
      io.err(`catalog:pull: verification failed, nothing written: ${error.message}`);
      return EXIT.failed;
    }
    if (error instanceof CatalogApiError) {
      io.err(`catalog:pull: ${error.message}`);
      return EXIT_REQUEST_FAILED;
    }
    throw error;
  }
}

function syncSummary(result: SyncResult): string {
  const what = `${result.path} holds ${result.release_id}, verified`;
  if (result.previous_release_id === result.release_id)
    return `synced: ${what}; it was already current, nothing fetched`;
  const how =
    result.mode === "changes"
      ? `${count(result.profiles, "changed profile")} fetched (${result.bytes} bytes) since ${result.previous_release_id}`
      : `downloaded in full (${result.bytes} bytes; ${result.reason?.replaceAll("-", " ")})`;
  return `synced: ${what}; ${how}`;
}
