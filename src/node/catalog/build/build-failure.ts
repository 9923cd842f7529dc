/**
 * What `catalog:build` says when the build itself fails (exit 3) rather than the input: the
 * system's message alone ("ENOSPC: no space left on device, write") names neither the place nor
 * what to do, so a full disk is explained: where the build writes, how much space it needs there
 * (about the size of its input: the runs, then the parts, never both whole; see docs/catalog-build.md,
 * "Disk space") and how large that filesystem is (what is free right after the failure says
 * little: files the build still had open are freed only as it exits).
 */
import { statfsSync } from "node:fs";
import path from "node:path";
import { formatBytes } from "../../cli/progress";

export interface BuildPlace {
  /** The --out directory, resolved. */
  outDir: string;
  /** Bytes of input, when known. */
  inputBytes?: number;
}

function filesystemBytes(dir: string): number | undefined {
  try {
    const stats = statfsSync(dir);
    return stats.blocks * stats.bsize;
  } catch {
    return undefined;
  }
}

export function buildFailureMessage(error: unknown, place: BuildPlace): string {
  const message = error instanceof Error ? error.message : String(error);
  if ((error as NodeJS.ErrnoException | undefined)?.code !== "ENOSPC") return `the build failed: ${message}`;
  // The build writes its runs and parts in a temporary directory beside --out, then renames it.
  const where = path.dirname(place.outDir);
  const size = filesystemBytes(where);
  const needed =
    place.inputBytes === undefined
      ? "about as much as the input's size"
      : `about ${formatBytes(place.inputBytes)} (the input's size)`;
  return (
    `the disk holding ${where} is full (${message}). The build writes its temporary files there, beside --out ${place.outDir}, ` +
    `and needs ${needed} free on that filesystem${size === undefined ? "" : ` (${formatBytes(size)} in all)`}. ` +
    "Nothing was written under --out and the temporary files were removed: free some space or choose an --out on a larger disk, then run the same command again."
  );
}
