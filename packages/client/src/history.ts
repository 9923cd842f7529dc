/**
 * Change over time: a profile's history (`GET /v1/profiles/{…}/history`), every entry newest first
 * following `next`, and the summary of two releases (`GET /v1/releases/{id}/changes/summary`).
 * Web APIs only.
 */
import { CatalogVerificationError } from "./errors.js";
import type { CatalogHttp } from "./http-client.js";
import { pathSegment, releaseIdFrom } from "./manifest.js";
import type { CallOptions } from "./types.js";

/** One event at which the profile's bytes changed, with its rated fields then. */
export interface ProfileHistoryEntry {
  event_at: string;
  release_id: string;
  previous_release_id: string | null;
  event: "publish" | "rollback";
  change: "added" | "changed" | "removed";
  agent_readiness_profile_id: string;
  product_key: string;
  funnel_key: string;
  sha256: string | null;
  previous_sha256: string | null;
  grade: string;
  overall_outcome: string;
  public_state: string;
  primary_stage: string;
  stages: Record<"evaluate" | "sign_up" | "pay" | "provision" | "operate", string>;
  last_tested_at: string;
  fields_changed: string[];
}

/** How two releases differ, counted; `transitions[field]["old→new"]` profiles went that way. */
export interface ReleaseChangesSummary {
  release_id: string;
  since: string;
  added: number;
  removed: number;
  changed: number;
  transitions: Record<string, Record<string, number>>;
}

export type HistoryOptions = CallOptions & { /** Entries per request, 1–100 (default 100). */ pageSize?: number };

type ProfileRef = { product: string; funnel: string } | { id: string };

/** Every entry of a profile's history, newest first; a profile never published rejects with a 404 CatalogApiError. */
export async function* profileHistory(
  http: CatalogHttp,
  baseUrl: string,
  ref: ProfileRef,
  options: HistoryOptions = {},
): AsyncGenerator<ProfileHistoryEntry, void, undefined> {
  const profile = "id" in ref ? pathSegment(ref.id) : `${pathSegment(ref.product)}/${pathSegment(ref.funnel)}`;
  let path: string | null = `/v1/profiles/${profile}/history?limit=${options.pageSize ?? 100}`;
  while (path) {
    const url = new URL(path, baseUrl).href;
    const page = (await (await http.get(url, { signal: options.signal })).json()) as {
      data?: unknown;
      next?: unknown;
    };
    if (!Array.isArray(page.data)) throw new CatalogVerificationError(`${url}: not a history page`);
    yield* page.data as ProfileHistoryEntry[];
    path = typeof page.next === "string" ? page.next : null;
  }
}

/** The summary from `since` to `releaseId`; a release the history does not know rejects with a 404 CatalogApiError. */
export async function compareReleases(
  http: CatalogHttp,
  baseUrl: string,
  releaseId: string,
  since: string,
  options: CallOptions = {},
): Promise<ReleaseChangesSummary> {
  const [newer, older] = [releaseIdFrom(releaseId), releaseIdFrom(since)];
  const url = new URL(`/v1/releases/${pathSegment(newer)}/changes/summary?since=${pathSegment(older)}`, baseUrl).href;
  const summary = (await (await http.get(url, { signal: options.signal })).json()) as ReleaseChangesSummary;
  if (summary.release_id !== newer || summary.since !== older)
    throw new CatalogVerificationError(`${url}: not the summary of ${newer} since ${older}`);
  return summary;
}
