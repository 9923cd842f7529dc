/**
 * Progress of an upload, a verification or a download, counted in parts, on stderr: the shared
 * reporter of every long command (src/node/cli/progress.ts), a live bar on a terminal and a plain line
 * every few seconds elsewhere.
 */
import type { PublishProgress } from "../catalog/publish";
import { startProgress, type Progress } from "./progress";

export type TransferProgress = Progress;

export function transferProgress(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): TransferProgress {
  return startProgress(label, "parts", total, { stream });
}

/** Publish/rollback progress: one report per phase (upload, then verify). */
export function phaseProgress(stream: NodeJS.WriteStream = process.stderr) {
  let bar: TransferProgress | undefined;
  return {
    report(progress: PublishProgress) {
      if (progress.index === 0) {
        bar?.stop();
        bar = transferProgress(progress.phase === "upload" ? "upload parts" : "verify parts", progress.count, stream);
      }
      bar?.update(progress.index + 1);
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
