/**
 * How many profiles changed from one release to another, from the release history
 * (`GET /v1/releases`: each event's added, changed and removed counts against the release it
 * replaced), before sync fetches the change list: when the changes are too large for the server to
 * keep their bytes, the list would be fetched only to be thrown away (1.12× the document at 50 %).
 * Web APIs only.
 */
import { CatalogApiError } from "./errors.js";
import type { CatalogHttp } from "./http-client.js";

/** One page holds every kept release's events: the server keeps 6 releases, and pages up to 100. */
const HISTORY_PAGE = 100;

interface ReleaseEvent {
  release_id: string;
  current: boolean;
  previous_release_id: string | null;
  changes: { added: number; changed: number; removed: number } | null;
}

interface ChangesEstimate {
  /**
   * Added plus changed profiles summed over each publish or rollback from `since` to the release:
   * at least the profiles sync would fetch (a profile changed twice counts twice).
   */
  fetchedAtMost: number;
  /** Bytes of the history page as received. */
  bytes: number;
}

/**
 * The estimate for going from `since` to the current release `releaseId`; null when the history
 * does not tell (an event without counts, `since` not in it, or no history on this server).
 */
export async function estimateChanges(
  http: CatalogHttp,
  baseUrl: string,
  releaseId: string,
  since: string,
  signal?: AbortSignal,
): Promise<ChangesEstimate | null> {
  let text: string;
  try {
    text = await (await http.get(new URL(`/v1/releases?limit=${HISTORY_PAGE}`, baseUrl).href, { signal })).text();
  } catch (error) {
    if (error instanceof CatalogApiError) return null;
    throw error;
  }
  const page = JSON.parse(text) as { data?: unknown };
  if (!Array.isArray(page.data)) return null;
  const fetchedAtMost = changedAlongHistory(page.data as ReleaseEvent[], releaseId, since);
  return fetchedAtMost === null ? null : { fetchedAtMost, bytes: new TextEncoder().encode(text).length };
}

/**
 * Walks the events (newest first) from the one that made `releaseId` current back to the one
 * whose previous release is `since`, summing what each added or changed. A release met twice on
 * the way (a rollback, a release published again) closes a loop that changed nothing in the end:
 * the sum goes back to what it was the first time.
 */
function changedAlongHistory(events: readonly ReleaseEvent[], releaseId: string, since: string): number | null {
  const start = events.findIndex((event) => event.current && event.release_id === releaseId);
  if (start < 0) return null;
  const totalAt = new Map([[releaseId, 0]]);
  let [wanted, total] = [releaseId, 0];
  for (const event of events.slice(start)) {
    if (event.release_id !== wanted) continue;
    const previous = event.previous_release_id;
    if (!event.changes || previous === null) return null;
    total = totalAt.get(previous) ?? total + event.changes.added + event.changes.changed;
    if (previous === since) return total;
    totalAt.set(previous, total);
    wanted = previous;
  }
  return null;
}
