/**
 * `client.sync(dir)` (Node): keeps `<dir>/catalog.json` a verified copy of the current release at
 * the cost of what changed. The first call downloads the document; later ones read the local
 * copy's release id from its envelope, list the changes since it, fetch only the added and changed
 * profiles in one body (a range request per profile cost more time than a full pull: bench
 * "sync"), asked for with the list, rebuild the new document beside the old one (rebuild.ts),
 * verify it (the whole document's sha256, which covers every part, and its artifact_sha256) and
 * only then rename it over the old copy (flushed to the disk first with `durable`). Interrupted
 * anywhere, the old copy is whole; the next call starts again. A local release no longer kept
 * (410), changes larger than half the document, or a local copy that does not rebuild into the
 * verified document: a full download. Whether the changes are that large is first judged from the
 * release history's counts (changes-estimate.ts), so that a full download does not fetch the
 * change list before it.
 */
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import type { ClientContext } from "../client.js";
import { estimateChanges } from "../changes-estimate.js";
import { CatalogApiError, CatalogVerificationError } from "../errors.js";
import { fetchManifest } from "../manifest.js";
import { type ByteReader, fetchChanges, openChangedProfiles } from "../release-changes.js";
import type { CallOptions, Progress, WriteOptions } from "../types.js";
import { downloadRelease } from "./download.js";
import { type ChangesProgress, type LocalRelease, rebuild } from "./rebuild.js";

/** The file sync keeps in its directory. */
export const SYNC_FILE = "catalog.json";

export type SyncProgress = ({ mode: "full" } & Progress) | ChangesProgress;

export interface SyncOptions extends CallOptions, WriteOptions {
  onProgress?: (progress: SyncProgress) => void;
}

export interface SyncResult {
  /** "changes": rebuilt from the local copy and the changed profiles; "full": downloaded whole. */
  mode: "changes" | "full";
  /** Why a full download: no local copy, its release is no longer kept, changes too large, or it did not rebuild. */
  reason?: "no-local-copy" | "release-gone" | "changes-too-large" | "local-copy-mismatch";
  path: string;
  release_id: string;
  previous_release_id: string | null;
  /** Profiles fetched (full: every profile). */
  profiles: number;
  /** Bytes received: release history, change list and changed profiles, or the parts downloaded (plus what was listed before). */
  bytes: number;
}

export async function syncRelease(context: ClientContext, dir: string, options: SyncOptions = {}): Promise<SyncResult> {
  const { signal } = options;
  await mkdir(dir, { recursive: true });
  const target = path.resolve(dir, SYNC_FILE);
  const local = await localRelease(target);
  const manifest = await fetchManifest(context.http, context.baseUrl, undefined, signal);
  const full = async (reason: NonNullable<SyncResult["reason"]>, listed = 0): Promise<SyncResult> => {
    const result = await downloadRelease(context, target, {
      release: manifest.release_id,
      signal,
      durable: options.durable,
      onProgress: (progress) => options.onProgress?.({ mode: "full", ...progress }),
    });
    return {
      mode: "full",
      reason,
      path: target,
      release_id: manifest.release_id,
      previous_release_id: local?.releaseId ?? null,
      profiles: manifest.profile_count,
      bytes: listed + result.bytesFetched,
    };
  };
  if (!local) return full("no-local-copy");
  const unchanged = { path: target, release_id: manifest.release_id, previous_release_id: local.releaseId };
  if (local.releaseId === manifest.release_id) return { mode: "changes", ...unchanged, profiles: 0, bytes: 0 };

  // Past half the document the server keeps no bytes of the changes (409 changes_too_large).
  // The history's counts, each profile taken at the document's average size, say so before the list.
  const estimate = await estimateChanges(context.http, context.baseUrl, manifest.release_id, local.releaseId, signal);
  if (estimate && estimate.fetchedAtMost * 2 > manifest.profile_count) return full("changes-too-large", estimate.bytes);
  const historyBytes = estimate?.bytes ?? 0;
  // The changed profiles' body is asked for with the list, one round trip less (bench "sync"):
  // both name the same changes, and a sync that ends up not using the body cancels it.
  const body = openChangedProfiles(context.http, context.baseUrl, manifest.release_id, local.releaseId, signal);
  body.catch(() => {}); // awaited below, or discarded
  let list: Awaited<ReturnType<typeof fetchChanges>>;
  try {
    list = await fetchChanges(context.http, context.baseUrl, manifest.release_id, local.releaseId, signal);
  } catch (error) {
    discard(body);
    if (error instanceof CatalogApiError && error.status === 410) return full("release-gone", historyBytes);
    throw error;
  }
  const fetched = list.changes.filter((change) => change.offset !== undefined);
  const wanted = fetched.reduce((sum, change) => sum + (change.length ?? 0), 0);
  const listed = historyBytes + list.bytes;
  // The list's exact bytes decide where the history could not tell or its average misjudged.
  if (wanted > manifest.bytes / 2) {
    discard(body);
    return full("changes-too-large", listed);
  }
  options.onProgress?.({
    mode: "changes",
    phase: "listed",
    profilesDone: 0,
    profilesTotal: fetched.length,
    bytesFetched: listed,
  });
  let profiles: ByteReader | undefined;
  try {
    profiles = await body;
    const bytes = await rebuild(manifest, local, list.changes, profiles, target, options);
    return { mode: "changes", ...unchanged, profiles: fetched.length, bytes: listed + bytes };
  } catch (error) {
    await profiles?.cancel();
    if (error instanceof CatalogVerificationError)
      return full("local-copy-mismatch", listed + (profiles?.received ?? 0));
    throw error;
  }
}

/**
 * Stops a body the sync will not read, once it answers: not awaited, so a failure of the list is
 * not held up by the body's own retries. Its failure (the list's, or an abort) is moot.
 */
function discard(body: Promise<ByteReader>): void {
  body.then(
    (reader) => reader.cancel(),
    () => {},
  );
}

/** The release the local copy holds, from its envelope; null when there is no readable copy. */
async function localRelease(target: string): Promise<LocalRelease | null> {
  const file = await open(target, "r").catch(() => null);
  if (!file) return null;
  try {
    const head = new Uint8Array(1024);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const text = new TextDecoder().decode(head.subarray(0, bytesRead));
    const match =
      /^\{"api_contract":"[^"\\]*","release_id":"(sha256:[0-9a-f]{64})","artifact_sha256":"sha256:[0-9a-f]{64}","data":\[/.exec(
        text,
      );
    const releaseId = match?.[1];
    if (!match || !releaseId) return null;
    return { releaseId, dataStart: match[0].length - 1, bytes: (await file.stat()).size };
  } finally {
    await file.close();
  }
}
