/**
 * Bytes of a document that may already be on disk: the previous download at the target path, and
 * the partial files `<target>.partial-<pid>-…` that interrupted downloads left. A part is taken
 * from them only when its bytes at the part's offset have the manifest's sha256, so a file of
 * another release, a half-written part or a concurrent download's file is safe to read.
 */
import { createHash } from "node:crypto";
import { open, readdir, rename, rm, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { PartEntry } from "../types.js";

interface Candidate {
  file: string;
  handle: FileHandle;
  size: number;
}

const PARTIAL = /^\.partial-(\d+)(?:-[0-9a-f]+)?$/;

export const partialName = (target: string, suffix: string) => `${target}.partial-${process.pid}-${suffix}`;

export class LocalCopies {
  private constructor(private readonly candidates: Candidate[]) {}

  static async open(target: string): Promise<LocalCopies> {
    const candidates: Candidate[] = [];
    for (const file of [target, ...(await partialFiles(target))]) {
      const handle = await open(file, "r").catch(() => undefined);
      const stats = await handle?.stat().catch(() => undefined);
      if (handle && stats?.isFile()) candidates.push({ file, handle, size: stats.size });
      else await handle?.close();
    }
    return new LocalCopies(candidates);
  }

  /** The part's bytes from the first file that holds them, or undefined. */
  async read(part: PartEntry): Promise<Uint8Array | undefined> {
    for (const candidate of this.candidates) {
      if (candidate.size < part.offset + part.length) continue;
      const bytes = new Uint8Array(part.length);
      const { bytesRead } = await candidate.handle.read(bytes, 0, part.length, part.offset);
      if (bytesRead === part.length && `sha256:${createHash("sha256").update(bytes).digest("hex")}` === part.sha256)
        return bytes;
    }
    return undefined;
  }

  async close(): Promise<void> {
    await Promise.all(this.candidates.map((candidate) => candidate.handle.close().catch(() => {})));
  }
}

/**
 * Puts the finished partial file `temp` (open as `file`) in place of `target` by rename, so a reader
 * sees the old copy or the new one, never a mix, and a process stopped at any point leaves the old
 * copy whole. `durable` also survives an OS crash or power loss: the file's bytes are flushed to
 * the disk (fsync) before the rename and the directory's entry after it. Without it the kernel
 * writes them back when it chooses (like curl, wget or rsync by default), and a copy torn by a
 * power loss does not verify, so the next sync downloads in full.
 */
export async function replaceFile(file: FileHandle, temp: string, target: string, durable = false): Promise<void> {
  if (durable) await file.sync();
  await file.close();
  await rename(temp, target);
  if (!durable) return;
  const dir = await open(path.dirname(target), "r");
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

/** After a download: the partial files of processes that are gone (a running one's may still grow). Best effort. */
export async function removeAbandonedPartials(target: string): Promise<void> {
  for (const file of await partialFiles(target)) {
    const pid = Number(PARTIAL.exec(file.slice(target.length))?.[1]);
    if (!Number.isSafeInteger(pid)) continue; // not a partial file of ours
    if (pid !== process.pid && !isRunning(pid)) await rm(file, { force: true }).catch(() => {});
  }
}

async function partialFiles(target: string): Promise<string[]> {
  const names = await readdir(path.dirname(target)).catch(() => []);
  const base = path.basename(target);
  return names
    .filter((name) => name.startsWith(base) && PARTIAL.test(name.slice(base.length)))
    .map((name) => path.join(path.dirname(target), name));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
