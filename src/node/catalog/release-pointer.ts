/**
 * Transitions of KV `current`, the only mutable record of a deployment (docs/contract.md, "Document and digests").
 * Pure: publish and rollback compute the next pointer here and write it at the edge of their flow.
 */
import { KEPT_PREVIOUS_RELEASES, type CurrentPointer } from "../../common/catalog/manifest";

/**
 * The pointer after `releaseId` becomes current: the old current release moves to the front of
 * `previous`, which keeps the last KEPT_PREVIOUS_RELEASES releases (rollback targets, and what a
 * client mid-download may still be paging through). Making the current release current is a no-op.
 */
export function pointerMakingCurrent(current: CurrentPointer | null, releaseId: string): CurrentPointer {
  if (!current) return { release_id: releaseId, previous: [] };
  if (current.release_id === releaseId) return current;
  const previous = [current.release_id, ...current.previous.filter((id) => id !== releaseId)];
  return { release_id: releaseId, previous: previous.slice(0, KEPT_PREVIOUS_RELEASES) };
}

export class RollbackRefused extends Error {}

/** The pointer after a rollback to `releaseId`, which must be one of the kept earlier releases. */
export function pointerRollingBackTo(current: CurrentPointer | null, releaseId: string): CurrentPointer {
  if (!current)
    throw new RollbackRefused("nothing is published on this deployment yet, so there is nothing to roll back to");
  if (current.release_id === releaseId) return current;
  if (!current.previous.includes(releaseId)) {
    const kept = current.previous.length ? current.previous.join(", ") : "none";
    throw new RollbackRefused(
      `${releaseId} is not one of the kept earlier releases of this deployment (kept: ${kept}; current: ${current.release_id}). ` +
        "To serve a release that is no longer kept, publish its build again with catalog:publish.",
    );
  }
  return pointerMakingCurrent(current, releaseId);
}
