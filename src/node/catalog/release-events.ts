/**
 * What a publish or rollback records beside moving `current`: the changes from the release it
 * replaced (stored in R2 for `GET /v1/releases/{id}/changes`) and an entry in the history
 * (`GET /v1/releases`). Both are idempotent, so a publish run again after an interruption
 * finishes them.
 */
import { ensureChanges, ReleaseWithoutIndex, type ChangesBucket } from "../../common/catalog/changes-store";
import { hexOf, Manifest, storageKeys } from "../../common/catalog/manifest";
import type { ChangeCounts } from "../../common/catalog/release-changes";
import { historyWith, readHistory, type HistoryEntry } from "../../common/catalog/release-history";

/** The KV reads and writes the events need (KVNamespace satisfies it). */
interface EventKv {
  get(key: string): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
}

/**
 * The change counts from release `sinceId` to `manifest` (stored once, then read back), or null
 * when there is no earlier release or one of the two has no index. Webhook payloads call this.
 */
export async function changesBetween(
  storage: { bucket: ChangesBucket; kv: EventKv },
  manifest: Manifest,
  sinceId: string | null,
): Promise<ChangeCounts | null> {
  if (sinceId === null) return null;
  const text = await storage.kv.get(storageKeys.releaseManifestKv(hexOf(sinceId)));
  if (text === null) return null;
  try {
    return (await ensureChanges(storage.bucket, manifest, Manifest.parse(JSON.parse(text)))).counts;
  } catch (error) {
    if (error instanceof ReleaseWithoutIndex) return null;
    throw error;
  }
}

/**
 * Adds the event to the history, unless its newest entry already records this release as made
 * current (a publish of the current release again, or a retry after the write below succeeded).
 */
export async function recordInHistory(kv: EventKv, event: Omit<HistoryEntry, "sequence">): Promise<void> {
  const history = await readHistory(kv);
  if (history.entries[0]?.release_id === event.release_id) return;
  await kv.put(storageKeys.history, JSON.stringify(historyWith(history, event)));
}
