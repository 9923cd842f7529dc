/** Reading the history routes in tests: typed entries, every page of one, and the releases' profiles. */
import { expect } from "vitest";
import type { ProfileHistoryEntry } from "../../../packages/client/src/history";
import { api } from "./api";

/** The client package's type of an entry: the one written definition of the wire shape. */
export type HistoryEntry = ProfileHistoryEntry;

export interface HistoryList {
  object: "list";
  data: HistoryEntry[];
  has_more: boolean;
  next: string | null;
}

/** Every entry of a history, following `next` from `path`. */
export async function wholeHistory(path: string): Promise<HistoryEntry[]> {
  const entries: HistoryEntry[] = [];
  for (let next: string | null = path; next !== null; ) {
    const res = await api(next);
    expect(res.status).toBe(200);
    const page = (await res.json()) as HistoryList;
    entries.push(...page.data);
    next = page.next;
  }
  return entries;
}

export interface ListedChange {
  change: string;
  agent_readiness_profile_id: string;
  product_key: string;
  funnel_key: string;
  sha256?: string;
  previous_sha256?: string;
}

/** The changes route's list (the history's source of truth for which profiles changed). */
export async function changesBetween(newer: string, since: string): Promise<ListedChange[]> {
  const res = await api(`/v1/releases/${newer}/changes?since=${since}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: ListedChange[] }).data;
}
