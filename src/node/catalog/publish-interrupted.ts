/**
 * What an interrupted `catalog:publish` leaves, from its progress: the parts it uploaded (immutable
 * R2 objects, harmless), and `current`, which it moves only after every object is verified. A rerun
 * of the same command finishes: parts already there are checked, not sent again.
 */
import type { PublishProgress } from "./publish";

export function publishTracker(releaseId: string) {
  let uploaded = 0;
  let verified = 0;
  let count = 0;
  const RERUN = "Run the same command again to finish: parts already uploaded are checked, not sent again.";
  const UNCHANGED = "current was not changed: the release served before is still served.";
  return {
    observe(progress: PublishProgress): void {
      count = progress.count;
      if (progress.phase === "upload") uploaded = progress.index + 1;
      else verified = progress.index + 1;
    },
    /** What was left, for the interruption message. */
    describe(): string {
      if (count === 0) return `nothing of ${releaseId} was uploaded yet; ${UNCHANGED} ${RERUN}`;
      if (uploaded < count)
        return `${uploaded} of ${count} parts of ${releaseId} were uploaded (kept in R2; objects are immutable); ${UNCHANGED} ${RERUN}`;
      if (verified < count)
        return `all ${count} parts of ${releaseId} were uploaded and ${verified} verified; ${UNCHANGED} ${RERUN}`;
      return `all ${count} parts of ${releaseId} were uploaded and verified, and it was stopped while pointing current at it, so current may not name it yet. ${RERUN}`;
    },
  };
}
