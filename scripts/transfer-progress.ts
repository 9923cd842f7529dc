/**
 * Progress of an upload, a verification or a download, counted in parts, on stderr: the shared
 * reporter of every long command (scripts/progress.ts), a live bar on a terminal and a plain line
 * every few seconds elsewhere.
 */
import type { PublishProgress } from "../src/node/catalog/publish";
import { startProgress, type Progress, type ProgressUnit } from "./progress";

export type TransferProgress = Progress;

export function transferProgress(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): TransferProgress {
  return startProgress(label, "parts", total, { stream });
}

const PHASE_LABELS: Record<PublishProgress["phase"], [string, ProgressUnit]> = {
  upload: ["upload parts", "parts"],
  verify: ["verify parts", "parts"],
  load: ["load query rows", "batches"],
};

/** Publish/rollback progress: one report per phase (upload, verify, then the D1 load). */
export function phaseProgress(stream: NodeJS.WriteStream = process.stderr) {
  let bar: TransferProgress | undefined;
  return {
    report(progress: PublishProgress) {
      if (progress.index === 0) {
        bar?.stop();
        const [label, unit] = PHASE_LABELS[progress.phase];
        bar = startProgress(label, unit, progress.count, { stream });
      }
      bar?.update(progress.index + 1);
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
