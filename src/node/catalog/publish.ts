/**
 * Publish and roll back releases over a deployment's R2 bucket and KV namespace
 * (docs/storage.md, "Catalog releases"). One definition for the Node CLIs (bindings from wrangler's
 * getPlatformProxy, local or remote) and the workerd tests (the real local bindings).
 *
 * Order is the whole point: parts and index segments (create-only, checksummed by R2) → manifest
 * (R2 create-only, the arbiter between concurrent publishes; then KV, a copy of R2's) → verify
 * every object → load the D1 query tables → only then flip `current`. Interrupted anywhere before
 * the flip, the previous release is still the one served; run again, it picks up where it stopped.
 * After the flip: the history entry (KV), then the profile history (D1, history-write.ts), then the
 * watch events (D1, watch-record.ts), all finished by a rerun.
 */
import { expectDefined } from "../../common/expect";
import { sha256Hex } from "../../common/sha256";
import { hexOf, Manifest, storageKeys } from "../../common/catalog/manifest";
import { stepProgress, type Step } from "../cli/progress";
import { indexProblems, releaseProblems } from "./release-check";
import { publishedManifest, recordManifest, refuseOtherLayout, type ManifestBucket } from "./manifest-record";
import {
  PublishError,
  putImmutable,
  releaseObjects,
  verifyObject,
  type ReleaseBucket,
  type ReleaseObject,
} from "./release-objects";
import { pointerMakingCurrent, pointerRollingBackTo } from "./release-pointer";
import type { ReleaseSource } from "./release-source";
import { retryingStorage } from "./retrying-storage";
import type { RetryPolicy } from "../../common/transient";
import { loadQueryTables, pruneQueryTables, type LoadProgress, type QueryDb } from "./query-load";
import { readCurrent, writeCurrentPointer } from "../../common/catalog/store";
import type { ChangeCounts } from "../../common/catalog/release-changes";
import type { ChangesBucket } from "../../common/catalog/changes-store";
import { changesBetween, recordInHistory } from "./release-events";
import { recordProfileHistory } from "./history-write";
import { recordWatchEvents } from "./watch-record";

export { readCurrent, PublishError };
export type { ReleaseBucket } from "./release-objects";
export type { ReleaseSource } from "./release-source";

/** The subset of a KV namespace binding publishing uses (KVNamespace satisfies it). */
export interface ReleaseKv {
  get(key: string): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
}
export interface ReleaseStorage {
  bucket: ReleaseBucket & ChangesBucket & ManifestBucket;
  kv: ReleaseKv;
  /** CATALOG_DB: the query tables (migrations/). */
  db: QueryDb;
}

export type PublishProgress =
  | { phase: "upload"; index: number; count: number; bytes: number; existed: boolean }
  | { phase: "verify"; index: number; count: number }
  | LoadProgress;

/** Publish and rollback progress on stderr: one bar per phase (upload, verify, then the D1 load). */
export function publishProgress() {
  const steps = stepProgress();
  const report = (event: PublishProgress) =>
    steps.show(event.phase, PUBLISH_STEPS[event.phase], event.index + 1, event.count);
  return { report, stop: steps.stop };
}

const PUBLISH_STEPS: Record<PublishProgress["phase"], Step> = {
  upload: { label: "upload parts", unit: "parts" },
  verify: { label: "verify parts", unit: "parts" },
  load: { label: "load query rows", unit: "batches" },
};

export interface PublishResult {
  release_id: string;
  published_at: string;
  parts: number;
  parts_uploaded: number;
  bytes_uploaded: number;
  index_segments: number;
  index_segments_uploaded: number;
  /** Profiles loaded into the query tables by this run (0 when an earlier publish loaded them). */
  query_rows_loaded: number;
  /** How long the D1 load took (or found the release loaded already), in ms. */
  query_load_ms: number;
  /** False when the release was already current (publishing it again changed nothing). */
  pointer_flipped: boolean;
  previous_release_id: string | null;
  /** Against previous_release_id (null when there is none, or one of the two has no index). */
  changes: ChangeCounts | null;
}

/** What publish and rollback take besides the storage and the release. */
export interface PublishOptions {
  now?: () => Date;
  onProgress?: (progress: PublishProgress) => void;
  /** Profiles per D1 batch of the load (query-load.ts); tests make it small to stop a load midway. */
  loadBatchProfiles?: number;
  /** How a failed storage call is tried again (default PUBLISH_RETRIES); tests shorten the waits. */
  retries?: RetryPolicy;
}

export async function publishRelease(
  storage: ReleaseStorage,
  source: ReleaseSource,
  options: PublishOptions = {},
): Promise<PublishResult> {
  storage = retryingStorage(storage, options.retries);
  const problems = await releaseProblems(source.manifest);
  if (problems.length === 0) problems.push(...indexProblems(Manifest.parse(source.manifest)));
  if (problems.length) throw new PublishError(`the build's manifest cannot be published:\n- ${problems.join("\n- ")}`);
  const built = Manifest.parse(source.manifest);
  const hex = hexOf(built.release_id);

  const existing = await publishedManifest(storage, hex);
  if (existing) refuseOtherLayout(existing, built);
  // published_at is set once, at first publish, and kept by every later publish.
  const manifest: Manifest = {
    ...built,
    published_at: existing?.published_at ?? (options.now?.() ?? new Date()).toISOString(),
  };

  const objects = releaseObjects(manifest);
  const partCount = manifest.parts.length;
  const uploaded = { parts: 0, bytes: 0, segments: 0 };
  for (const object of objects) {
    const created = await putImmutable(
      storage.bucket,
      object.key,
      await readObject(source, object),
      object.sha256,
      "application/octet-stream",
    );
    if (object.source.kind === "index") {
      uploaded.segments += created ? 1 : 0;
      continue;
    }
    if (created) {
      uploaded.parts += 1;
      uploaded.bytes += object.length;
    }
    options.onProgress?.({
      phase: "upload",
      index: object.source.index,
      count: partCount,
      bytes: object.length,
      existed: !created,
    });
  }

  // R2's create-only put decides which of concurrent publishes' manifests stands; KV copies it.
  const manifestText = await recordManifest(storage, manifest);
  const recorded = Manifest.parse(JSON.parse(manifestText));
  const manifestBytes = new TextEncoder().encode(manifestText);
  await verifyRelease(storage, recorded, options.onProgress);
  const stored = await storage.kv.get(storageKeys.releaseManifestKv(hex));
  if (stored !== manifestText)
    throw new PublishError(`KV ${storageKeys.releaseManifestKv(hex)} does not hold the manifest R2 holds`);
  const manifestDigest = `sha256:${await sha256Hex(manifestBytes)}`;
  await verifyObject(storage.bucket, storageKeys.releaseManifestR2(hex), manifestBytes.byteLength, manifestDigest);
  const loadStarted = performance.now();
  const load = await loadQueryTables(storage.db, recorded, source, {
    onProgress: options.onProgress,
    batchProfiles: options.loadBatchProfiles,
  });
  const queryLoadMs = performance.now() - loadStarted;

  const current = await readCurrent(storage.kv);
  const next = pointerMakingCurrent(current, recorded.release_id);
  const flipped = next !== current;
  const previousId = flipped ? (current?.release_id ?? null) : null;
  // Stored before the flip, so the changes from the release it replaces are ready when it is served.
  const changes = await changesBetween(storage, recorded, previousId);
  if (flipped) await writeCurrentPointer(storage.kv, next);
  await pruneQueryTables(storage.db, [next.release_id, ...next.previous]);
  await recordInHistory(storage.kv, {
    event: "publish",
    release_id: manifest.release_id,
    previous_release_id: previousId,
    changes,
    at: (options.now?.() ?? new Date()).toISOString(),
  });
  await recordProfileHistory(storage);
  await recordWatchEvents(storage);
  return {
    release_id: manifest.release_id,
    published_at: expectDefined(recorded.published_at, "published_at, set above"),
    parts: partCount,
    parts_uploaded: uploaded.parts,
    bytes_uploaded: uploaded.bytes,
    index_segments: objects.length - partCount,
    index_segments_uploaded: uploaded.segments,
    query_rows_loaded: load.loaded ? load.rows : 0,
    query_load_ms: queryLoadMs,
    pointer_flipped: flipped,
    previous_release_id: previousId,
    changes,
  };
}

/** Point `current` back at a kept earlier release, after checking every object of it is intact. */
export async function rollbackRelease(
  storage: ReleaseStorage,
  releaseId: string,
  options: PublishOptions = {},
): Promise<{
  release_id: string;
  previous_release_id: string;
  pointer_flipped: boolean;
  changes: ChangeCounts | null;
}> {
  storage = retryingStorage(storage, options.retries);
  const current = await readCurrent(storage.kv);
  const next = pointerRollingBackTo(current, releaseId);
  const from = expectDefined(current, "a current pointer (pointerRollingBackTo refuses none)");
  const manifest = await readManifest(storage.kv, hexOf(releaseId));
  if (!manifest)
    throw new PublishError(
      `${releaseId} is listed as kept but its manifest is missing from KV; publish its build again`,
    );
  await verifyRelease(storage, manifest, options.onProgress);
  const flipped = next !== current;
  const changes = flipped ? await changesBetween(storage, manifest, from.release_id) : null;
  if (flipped) {
    await writeCurrentPointer(storage.kv, next);
    await recordInHistory(storage.kv, {
      event: "rollback",
      release_id: releaseId,
      previous_release_id: from.release_id,
      changes,
      at: (options.now?.() ?? new Date()).toISOString(),
    });
  }
  await recordProfileHistory(storage);
  await recordWatchEvents(storage);
  return { release_id: releaseId, previous_release_id: from.release_id, pointer_flipped: flipped, changes };
}

async function readObject(source: ReleaseSource, object: ReleaseObject): Promise<Uint8Array> {
  const where = object.source;
  const bytes =
    where.kind === "part" ? await source.readPart(where.index) : await source.readIndexSegment(where.name, where.index);
  if (bytes.byteLength !== object.length) {
    const what = where.kind === "part" ? `part ${where.index}` : `${where.name} index segment ${where.index}`;
    throw new PublishError(`${what} of the build is ${bytes.byteLength} bytes; the manifest says ${object.length}`);
  }
  return bytes;
}

async function verifyRelease(
  storage: ReleaseStorage,
  manifest: Manifest,
  onProgress?: (progress: PublishProgress) => void,
) {
  for (const object of releaseObjects(manifest)) {
    await verifyObject(storage.bucket, object.key, object.length, object.sha256);
    if (object.source.kind === "part")
      onProgress?.({ phase: "verify", index: object.source.index, count: manifest.parts.length });
  }
}

async function readManifest(kv: ReleaseKv, hex: string): Promise<Manifest | null> {
  const text = await kv.get(storageKeys.releaseManifestKv(hex));
  return text === null ? null : Manifest.parse(JSON.parse(text));
}
