/**
 * `client.sync(dir)` (Node): keeps `<dir>/catalog.json` a verified copy of the current release at
 * the cost of what changed. The first call downloads the document; later ones read the local
 * copy's release id from its envelope, list the changes since it, fetch only the added and changed
 * profiles in one body (a range request per profile cost more time than a full pull: bench
 * "sync"), rebuild the new document beside the old one (rebuild-plan.ts, sequential-io.ts), verify
 * it (the whole document's sha256, which covers every part, and its artifact_sha256) and only
 * then rename it over the old copy (flushed to the disk first with `durable`). Interrupted anywhere, the old copy
 * is whole; the next call starts again. A local release no longer kept (410), changes larger than
 * half the document, or a local copy that does not rebuild into the verified document: a full
 * download. Whether the changes are that large is first judged from the release history's counts
 * (changes-estimate.ts), so that a full download does not fetch the change list before it.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import type { ClientContext } from "../client.js";
import { DocumentCheck } from "../document-check.js";
import { estimateChanges } from "../changes-estimate.js";
import { CatalogApiError, CatalogVerificationError } from "../errors.js";
import { fetchManifest } from "../manifest.js";
import { documentPrefix } from "../protocol/digests.js";
import { expectProfileDigest, fetchChanges, openChangedProfiles, type ReleaseChange } from "../release-changes.js";
import type { CallOptions, Manifest, Progress, WriteOptions } from "../types.js";
import { downloadRelease } from "./download.js";
import { partialName, removeAbandonedPartials, replaceFile } from "./local-copies.js";
import { rebuildSteps, type Cut } from "./rebuild-plan.js";
import { CheckedWriter, SequentialReader } from "./sequential-io.js";
import { createWorkerSha256 } from "./worker-sha256.js";

/** The file sync keeps in its directory. */
export const SYNC_FILE = "catalog.json";

export type SyncProgress =
  | ({ mode: "full" } & Progress)
  | {
      mode: "changes";
      phase: "listed" | "fetch" | "verified";
      profilesDone: number;
      profilesTotal: number;
      bytesFetched: number;
    };

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
  let list: Awaited<ReturnType<typeof fetchChanges>>;
  try {
    list = await fetchChanges(context.http, context.baseUrl, manifest.release_id, local.releaseId, signal);
  } catch (error) {
    if (error instanceof CatalogApiError && error.status === 410) return full("release-gone", historyBytes);
    throw error;
  }
  const fetched = list.changes.filter((change) => change.offset !== undefined);
  const wanted = fetched.reduce((sum, change) => sum + (change.length ?? 0), 0);
  const listed = historyBytes + list.bytes;
  // The list's exact bytes decide where the history could not tell or its average misjudged.
  if (wanted > manifest.bytes / 2) return full("changes-too-large", listed);
  options.onProgress?.({
    mode: "changes",
    phase: "listed",
    profilesDone: 0,
    profilesTotal: fetched.length,
    bytesFetched: listed,
  });
  try {
    const bytes = await rebuild(context, manifest, local, list.changes, target, options);
    return { mode: "changes", ...unchanged, profiles: fetched.length, bytes: listed + bytes };
  } catch (error) {
    if (error instanceof CatalogVerificationError) return full("local-copy-mismatch", listed);
    throw error;
  }
}

interface LocalRelease {
  releaseId: string;
  /** Where `[` of `data` is. */
  dataStart: number;
  bytes: number;
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

/** Writes the new document to a partial file from the old one and the fetched profiles, verifies it, renames it. */
async function rebuild(
  context: ClientContext,
  manifest: Manifest,
  local: LocalRelease,
  changes: readonly ReleaseChange[],
  target: string,
  options: SyncOptions,
): Promise<number> {
  const byOffset = (a: Cut, b: Cut) => a.offset - b.offset;
  // A change with a new side (added, changed) is cut from the new document, with an old side
  // (changed, removed) from the old one; the list's schema gives each side's offset and length together.
  const newCuts = changes
    .flatMap(({ offset, length, sha256, ...change }) =>
      offset === undefined || length === undefined || sha256 === undefined
        ? []
        : [{ offset, length, sha256, id: change.agent_readiness_profile_id }],
    )
    .sort(byOffset);
  const oldCuts = changes
    .flatMap(({ previous_offset: offset, previous_length: length }) =>
      offset === undefined || length === undefined ? [] : [{ offset, length }],
    )
    .sort(byOffset);
  const prefix = new TextEncoder().encode(
    documentPrefix(manifest.api_contract, manifest.release_id, manifest.artifact_sha256),
  );
  const steps = rebuildSteps(
    { cuts: oldCuts, dataStart: local.dataStart, bytes: local.bytes },
    { cuts: newCuts, dataStart: prefix.length, bytes: manifest.bytes },
  );
  if (!steps) throw new CatalogVerificationError("the local copy's unchanged profiles do not make up the new document");
  const fetched = await openChangedProfiles(
    context.http,
    context.baseUrl,
    manifest.release_id,
    local.releaseId,
    options.signal,
  );
  const temp = partialName(target, randomBytes(4).toString("hex"));
  const old = await open(target, "r");
  const out = await open(temp, "w");
  const wholeHash = createWorkerSha256();
  try {
    const writer = new CheckedWriter(out, new DocumentCheck(manifest, wholeHash), undefined, (bytes) =>
      wholeHash.hashed(bytes),
    );
    const reader = new SequentialReader(old, local.dataStart + 1, local.bytes - 2, undefined, writer);
    await writer.write(prefix);
    await writer.write(OPEN_BRACKET);
    for (const step of steps) {
      options.signal?.throwIfAborted();
      if (step.kind === "comma") await writer.write(COMMA);
      else if (step.kind === "old")
        for await (const slice of reader.slices(step.start, step.end)) await writer.write(slice);
      else {
        const cut = newCuts[step.cut];
        if (!cut) throw new Error(`rebuild plan names cut ${step.cut} of ${newCuts.length}`);
        const bytes = await fetched.read(cut.length);
        await expectProfileDigest(bytes, cut.sha256, cut.id);
        await writer.write(bytes);
        report(options, "fetch", step.cut + 1, newCuts.length, fetched.received);
      }
    }
    await fetched.finish();
    await writer.write(CLOSE);
    await writer.finish();
    options.signal?.throwIfAborted(); // the last moment a cancelled sync leaves the old copy
    await replaceFile(out, temp, target, options.durable);
    await removeAbandonedPartials(target);
    report(options, "verified", newCuts.length, newCuts.length, fetched.received);
    return fetched.received;
  } catch (error) {
    await fetched.cancel();
    await out.close().catch(() => {});
    await rm(temp, { force: true });
    throw error;
  } finally {
    await wholeHash.close();
    await old.close();
  }
}

function report(options: SyncOptions, phase: "fetch" | "verified", done: number, total: number, bytes: number) {
  options.onProgress?.({ mode: "changes", phase, profilesDone: done, profilesTotal: total, bytesFetched: bytes });
}

const OPEN_BRACKET = new TextEncoder().encode("[");
const COMMA = new TextEncoder().encode(",");
const CLOSE = new TextEncoder().encode("]}");
