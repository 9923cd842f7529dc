/**
 * The publish and rollback history of a deployment (KV `history`, docs/storage.md): one entry per
 * publish that moved `current` and one per rollback, newest first, so that `GET /v1/releases`
 * can show a rollback as the event it was. Written by publish and rollback (Node) after they flip
 * `current`; read by the worker. The pure part (the next history) is here; the writes are at the
 * edge of the publish flow.
 */
import { z } from "@hono/zod-openapi";
import { storageKeys } from "./manifest";
import { Sha256Digest } from "./schema";

/** Entries kept: far more than the releases a deployment keeps (KEPT_PREVIOUS_RELEASES + 1). */
export const HISTORY_KEPT = 50;

export const ChangeCountsSchema = z
  .strictObject({ added: z.int().min(0), changed: z.int().min(0), removed: z.int().min(0) })
  .openapi("ChangeCounts");

export const HistoryEntry = z.strictObject({
  /** Increases by one with each event: the key the history is paged by. */
  sequence: z.int().min(1),
  event: z.enum(["publish", "rollback"]),
  release_id: Sha256Digest,
  /** When `current` moved. */
  at: z.iso.datetime(),
  previous_release_id: Sha256Digest.nullable(),
  /** Against `previous_release_id`; null when there is none, or one of the two has no index. */
  changes: ChangeCountsSchema.nullable(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const ReleaseHistory = z.strictObject({ entries: z.array(HistoryEntry) });
export type ReleaseHistory = z.infer<typeof ReleaseHistory>;

export async function readHistory(kv: { get(key: string): Promise<string | null> }): Promise<ReleaseHistory> {
  const text = await kv.get(storageKeys.history);
  return text === null ? { entries: [] } : ReleaseHistory.parse(JSON.parse(text));
}

/** The history with `event` added as its newest entry, at most HISTORY_KEPT entries. */
export function historyWith(history: ReleaseHistory, event: Omit<HistoryEntry, "sequence">): ReleaseHistory {
  const sequence = (history.entries[0]?.sequence ?? 0) + 1;
  return { entries: [{ sequence, ...event }, ...history.entries].slice(0, HISTORY_KEPT) };
}
