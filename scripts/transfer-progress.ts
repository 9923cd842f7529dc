/**
 * Progress of a long upload or download on stderr: a live bar on a terminal (cli-progress), a few
 * plain lines (every quarter) when stderr is a file or a pipe, so logs stay readable.
 */
import { Presets, SingleBar } from "cli-progress";
import type { PublishProgress } from "../src/catalog/publish";

export interface TransferProgress {
  update(done: number): void;
  stop(): void;
}

export function transferProgress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): TransferProgress {
  if (stream.isTTY) {
    const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} {percentage}%`, stream, hideCursor: true }, Presets.shades_classic);
    bar.start(total, 0);
    return { update: (done) => bar.update(done), stop: () => bar.stop() };
  }
  let reportedQuarter = -1;
  return {
    update: (done) => {
      const quarter = Math.floor((4 * done) / Math.max(total, 1));
      if (quarter > reportedQuarter) {
        reportedQuarter = quarter;
        stream.write(`${label}: ${done}/${total}\n`);
      }
    },
    stop: () => {},
  };
}

/** Publish/rollback progress: one bar per phase (upload, then verify). */
export function phaseProgress() {
  let bar: TransferProgress | undefined;
  return {
    report(progress: PublishProgress) {
      if (progress.index === 0) {
        bar?.stop();
        bar = transferProgress(progress.phase === "upload" ? "upload parts" : "verify parts", progress.count);
      }
      bar?.update(progress.index + 1);
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
