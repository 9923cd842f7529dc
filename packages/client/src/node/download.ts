/**
 * `client.download(path)` (Node): the whole document of one release, written to `<path>.partial-…`
 * part by part from pinned URLs, every part and the whole verified (README "Paging and
 * verifying"), then renamed to `path`. Parts already on disk with the manifest's sha256 (the
 * previous download, an interrupted one) are copied instead of fetched. Memory holds one part.
 *
 * If the server's bytes do not verify, the partial file is removed and `path` is left as it was.
 * A download that stops otherwise (aborted, a request failed for good) keeps its partial file, so
 * the next one fetches only the parts it lacks.
 */
import { randomBytes } from "node:crypto";
import { open, rm, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { ClientContext } from "../client.js";
import { DocumentCheck } from "../document-check.js";
import { CatalogVerificationError } from "../errors.js";
import { fetchManifest } from "../manifest.js";
import { fetchPart, type ReleaseSource } from "../release-parts.js";
import type { Manifest, PartEntry, Progress, ReleaseOptions, WriteOptions } from "../types.js";
import { LocalCopies, partialName, removeAbandonedPartials, replaceFile } from "./local-copies.js";

export interface DownloadOptions extends ReleaseOptions, WriteOptions {}

export interface DownloadResult {
  manifest: Manifest;
  /** The absolute path written. */
  path: string;
  partsFetched: number;
  /** Parts taken from files already on disk, not downloaded again. */
  partsReused: number;
  /** Bytes of the parts downloaded (not those taken from disk). */
  bytesFetched: number;
}

export async function downloadRelease(
  context: ClientContext,
  out: string,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  const target = path.resolve(out);
  const manifest = await fetchManifest(context.http, context.baseUrl, options.release, options.signal);
  const temp = partialName(target, randomBytes(4).toString("hex"));
  const file = await open(temp, "w");
  try {
    const { progress, bytesFetched } = await writeParts(
      { ...context, manifest, signal: options.signal },
      target,
      file,
      options.onProgress,
    );
    await replaceFile(file, temp, target, options.durable);
    await removeAbandonedPartials(target);
    options.onProgress?.({ ...progress, phase: "verified" });
    return {
      manifest,
      path: target,
      partsFetched: manifest.parts.length - progress.partsReused,
      partsReused: progress.partsReused,
      bytesFetched,
    };
  } catch (error) {
    await file.close().catch(() => {});
    if (error instanceof CatalogVerificationError) await rm(temp, { force: true });
    throw error;
  }
}

/** Every part into `file` at its offset, from disk where `target` or a partial file holds it, else fetched. */
async function writeParts(
  source: ReleaseSource,
  target: string,
  file: FileHandle,
  onProgress?: (progress: Progress) => void,
): Promise<{ progress: Progress; bytesFetched: number }> {
  const local = await LocalCopies.open(target);
  try {
    return await writeEachPart(source, local, file, onProgress);
  } finally {
    await local.close();
  }
}

async function writeEachPart(
  source: ReleaseSource,
  local: LocalCopies,
  file: FileHandle,
  onProgress?: (progress: Progress) => void,
): Promise<{ progress: Progress; bytesFetched: number }> {
  const { manifest } = source;
  let bytesFetched = 0;
  const check = new DocumentCheck(manifest);
  const progress: Progress = {
    phase: "download",
    bytesDone: 0,
    bytesTotal: manifest.bytes,
    partsDone: 0,
    partsTotal: manifest.parts.length,
    partsReused: 0,
  };
  const take = async (chunk: Uint8Array, offset: number) => {
    await check.add(chunk, offset);
    await file.write(chunk, 0, chunk.length, offset);
    progress.bytesDone += chunk.length;
  };
  for (const part of manifest.parts) {
    source.signal?.throwIfAborted();
    if (await reuse(local, part, take)) progress.partsReused++;
    else {
      await fetchPart(source, part, async (chunk, offset) => {
        await take(chunk, offset);
        onProgress?.({ ...progress });
      });
      bytesFetched += part.length;
    }
    progress.partsDone++;
    onProgress?.({ ...progress });
  }
  await check.finish();
  return { progress, bytesFetched };
}

async function reuse(
  local: LocalCopies,
  part: PartEntry,
  take: (chunk: Uint8Array, offset: number) => Promise<void>,
): Promise<boolean> {
  const bytes = await local.read(part);
  if (bytes) await take(bytes, part.offset);
  return bytes !== undefined;
}
