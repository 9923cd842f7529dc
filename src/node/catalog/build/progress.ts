/**
 * The build's progress on stderr, one step per pass, through the shared reporter
 * (src/node/cli/progress.ts): validating (input bytes read, with the profiles seen so far), writing
 * (profiles merged into the parts) and hashing (document bytes).
 */
import { startProgress, type Progress, type ProgressUnit } from "../../cli/progress";
import type { BuildProgress } from "./build";

const STEPS: Record<BuildProgress["phase"], { label: string; unit: ProgressUnit }> = {
  validate: { label: "validate", unit: "bytes" },
  write: { label: "write   ", unit: "profiles" },
  hash: { label: "hash    ", unit: "bytes" },
};

/** An `onProgress` callback for buildCatalog and a `stop` for when the build ends or fails. */
export function buildProgress(stream: NodeJS.WriteStream = process.stderr) {
  let phase: BuildProgress["phase"] | undefined;
  let step: Progress | undefined;
  let total = 0;
  let note: string | undefined;
  const onProgress = (progress: BuildProgress) => {
    if (progress.phase !== phase) {
      // The next pass starts only when this one is complete (its last events are coarse).
      step?.update(total, note);
      step?.stop();
      total = progress.total;
      phase = progress.phase;
      const { label, unit } = STEPS[phase];
      step = startProgress(stream.isTTY ? label : label.trim(), unit, progress.total, { stream });
    }
    note = progress.profiles === undefined ? undefined : `${progress.profiles.toLocaleString("en-US")} profiles`;
    step!.update(progress.done, note);
  };
  const stop = () => {
    step?.stop();
    step = undefined;
  };
  return { onProgress, stop };
}
