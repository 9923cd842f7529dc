/**
 * Sync's rebuild (sync.ts): the new document written to a partial file from the old copy's
 * unchanged bytes and the fetched profiles (rebuild-plan.ts, sequential-io.ts), every byte fed to
 * the manifest's two digests (the whole document's sha256 and artifact_sha256) as it is queued,
 * and renamed over the old copy only once both match.
 */
import { randomBytes } from "node:crypto";
import { open, rm } from "node:fs/promises";
import { DocumentCheck } from "../document-check.js";
import { CatalogVerificationError } from "../errors.js";
import { documentPrefix } from "../protocol/digests.js";
import { type ByteReader, expectProfileDigest, type ReleaseChange } from "../release-changes.js";
import type { CallOptions, Manifest, WriteOptions } from "../types.js";
import { partialName, removeAbandonedPartials, replaceFile } from "./local-copies.js";
import { rebuildSteps, type Cut } from "./rebuild-plan.js";
import { CheckedWriter, SequentialReader } from "./sequential-io.js";
import { createWorkerSha256 } from "./worker-sha256.js";

/** The local copy sync starts from. */
export interface LocalRelease {
  releaseId: string;
  /** Where `[` of `data` is. */
  dataStart: number;
  bytes: number;
}

/** What a sync by changes reports (`SyncProgress`). */
export interface ChangesProgress {
  mode: "changes";
  phase: "listed" | "fetch" | "verified";
  profilesDone: number;
  profilesTotal: number;
  bytesFetched: number;
}

interface RebuildOptions extends CallOptions, WriteOptions {
  onProgress?: (progress: ChangesProgress) => void;
}

/**
 * From this size on, the whole document's sha256 runs on a worker thread while this one computes
 * artifact_sha256, the old copy read in 8 MiB chunks. Below it both digests are computed here from
 * each 1 MiB chunk while it is in the CPU's cache: starting the thread costs about 0.1 s of CPU,
 * what a second core saves on hashing some 150 MB, and a 10k sync (49 MiB) spent a third of its
 * CPU time on the thread and on faulting in four fresh 8 MiB buffers (bench "sync").
 */
const THREAD_FROM_BYTES = 128 * 1024 * 1024;
const SMALL_CHUNK_BYTES = 1024 * 1024;

/**
 * Writes the new document beside the old copy from it and `fetched`, verifies it, renames it; the
 * bytes received. `threadFromBytes`: THREAD_FROM_BYTES (tests take both ways on small documents).
 */
export async function rebuild(
  manifest: Manifest,
  local: LocalRelease,
  changes: readonly ReleaseChange[],
  fetched: ByteReader,
  target: string,
  options: RebuildOptions,
  threadFromBytes = THREAD_FROM_BYTES,
): Promise<number> {
  const prefix = new TextEncoder().encode(
    documentPrefix(manifest.api_contract, manifest.release_id, manifest.artifact_sha256),
  );
  const { newCuts, steps } = planOf(manifest, local, changes, prefix.length);
  const temp = partialName(target, randomBytes(4).toString("hex"));
  const old = await open(target, "r");
  const out = await open(temp, "w");
  const thread = manifest.bytes >= threadFromBytes ? createWorkerSha256() : undefined;
  try {
    const hashed = thread && ((bytes: number) => thread.hashed(bytes));
    const writer = new CheckedWriter(out, new DocumentCheck(manifest, thread), undefined, hashed);
    const chunkBytes = thread ? undefined : SMALL_CHUNK_BYTES;
    const reader = new SequentialReader(old, local.dataStart + 1, local.bytes - 2, chunkBytes, writer);
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
    await out.close().catch(() => {});
    await rm(temp, { force: true });
    throw error;
  } finally {
    await thread?.close();
    await old.close();
  }
}

/**
 * Where the fetched profiles go in the new document, and the steps that write it. A change with a
 * new side (added, changed) is cut from the new document, with an old side (changed, removed) from
 * the old one; the list's schema gives each side's offset and length together.
 */
function planOf(manifest: Manifest, local: LocalRelease, changes: readonly ReleaseChange[], dataStart: number) {
  const byOffset = (a: Cut, b: Cut) => a.offset - b.offset;
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
  const steps = rebuildSteps(
    { cuts: oldCuts, dataStart: local.dataStart, bytes: local.bytes },
    { cuts: newCuts, dataStart, bytes: manifest.bytes },
  );
  if (!steps) throw new CatalogVerificationError("the local copy's unchanged profiles do not make up the new document");
  return { newCuts, steps };
}

function report(options: RebuildOptions, phase: "fetch" | "verified", done: number, total: number, bytes: number) {
  options.onProgress?.({ mode: "changes", phase, profilesDone: done, profilesTotal: total, bytesFetched: bytes });
}

const OPEN_BRACKET = new TextEncoder().encode("[");
const COMMA = new TextEncoder().encode(",");
const CLOSE = new TextEncoder().encode("]}");
