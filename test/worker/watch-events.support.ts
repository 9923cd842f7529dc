/** Reading watch events in tests, and the oracle they are checked against: the query route itself. */
import { expect } from "vitest";
import { api } from "./support/api";
import type { ListedChange } from "./support/history";

export interface EventEntry {
  agent_readiness_profile_id: string;
  sha256?: string;
  previous_sha256?: string;
  href: string;
}
export interface WatchEventBody {
  id: string;
  release_id: string;
  previous_release_id: string | null;
  watch_id: string;
  entered: EventEntry[];
  left: EventEntry[];
  changed: EventEntry[];
  entered_count: number;
  left_count: number;
  changed_count: number;
}

type Get = (path: string) => Promise<Response>;

async function everyPage<T>(get: Get, path: string): Promise<T[]> {
  const all: T[] = [];
  for (let next: string | null = path; next !== null; ) {
    const res = await get(next);
    expect(res.status, next).toBe(200);
    const page = (await res.json()) as { data: T[]; next: string | null };
    all.push(...page.data);
    next = page.next;
  }
  return all;
}

/** Every change from `since` to `release`, following `next`. */
export const allChanges = (release: string, since: string) =>
  everyPage<ListedChange>(api, `/v1/releases/${release}/changes?since=${since}`);

export const eventsOfWatch = (get: Get, watchId: string) =>
  everyPage<WatchEventBody>(get, `/v1/watches/${watchId}/events?limit=100`);

/**
 * The full lists of an event, through the paged profiles route: in pages of 7 by default (many
 * pages, to check the paging), or of `limit` (the route's most, 100: only the lists matter).
 */
export async function fullLists(get: Get, watchId: string, event: WatchEventBody, limit = 7) {
  const list = (name: string) =>
    everyPage<EventEntry>(get, `/v1/watches/${watchId}/events/${event.id}/profiles?list=${name}&limit=${limit}`);
  return { entered: await list("entered"), left: await list("left"), changed: await list("changed") };
}

/** The ids GET /v1/releases/{release}/profiles?{query} lists: every page. */
export async function queryIds(release: string, query: string): Promise<Set<string>> {
  const rows = await everyPage<{ agent_readiness_profile_id: string }>(
    api,
    `/v1/releases/${release}/profiles?${query}&limit=100`,
  );
  return new Set(rows.map((row) => row.agent_readiness_profile_id));
}

/** entered / left / changed as the issue defines them, from the changes list and both releases' matches. */
export function expectedLists(changes: ListedChange[], before: Set<string>, after: Set<string>) {
  const ids = (keep: (change: ListedChange) => boolean) =>
    changes.filter(keep).map((change) => change.agent_readiness_profile_id);
  const inNew = (c: ListedChange) => c.change !== "removed" && after.has(c.agent_readiness_profile_id);
  const inOld = (c: ListedChange) => c.change !== "added" && before.has(c.agent_readiness_profile_id);
  return {
    entered: ids((c) => inNew(c) && !inOld(c)),
    left: ids((c) => inOld(c) && !inNew(c)),
    changed: ids((c) => inNew(c) && inOld(c)),
  };
}
