/** A progress bar on stderr for long builds, shown only on a terminal (cli-progress). */
import cliProgress from "cli-progress";
import type { BuildProgress } from "./build";

const LABELS: Record<BuildProgress["phase"], string> = {
  validate: "validating ",
  write: "writing    ",
  hash: "hashing    ",
};

/** An `onProgress` callback and a `stop`; both do nothing when stderr is not a terminal. */
export function terminalProgress(stream: NodeJS.WriteStream = process.stderr) {
  if (!stream.isTTY) return { onProgress: undefined, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { stream, format: "{phase} |{bar}| {percentage}% | {value}/{total} {unit} | {duration_formatted}", hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let phase: BuildProgress["phase"] | undefined;
  const onProgress = (progress: BuildProgress) => {
    const unit = progress.phase === "write" ? "profiles" : "bytes";
    if (progress.phase !== phase) {
      if (phase) bar.stop();
      bar.start(progress.total, progress.done, { phase: LABELS[progress.phase], unit });
      phase = progress.phase;
    } else bar.update(progress.done);
  };
  return { onProgress, stop: () => phase && bar.stop() };
}
