/**
 * Watches (`/v1/watches`): be told when the profiles a filter or a list names enter, leave or
 * change at a publish. create/list/get/delete and every event of a watch, newest first. Web APIs only.
 */
import { CatalogVerificationError } from "./errors.js";
import type { CatalogHttp } from "./http-client.js";
import { pathSegment } from "./manifest.js";
import type { CallOptions } from "./types.js";

export type WatchedProfile = { product: string; funnel: string } | string;

export interface Watch {
  object: "watch";
  id: string;
  name: string;
  /** The filter part of a `GET /v1/profiles` query string; null for a list of profiles. */
  query: string | null;
  profiles: WatchedProfile[] | null;
  created_at: string;
}

export interface WatchEntry {
  agent_readiness_profile_id: string;
  product_key: string;
  funnel_key: string;
  sha256?: string;
  previous_sha256?: string;
  grade: string;
  stages: Record<"evaluate" | "sign_up" | "pay" | "provision" | "operate", string>;
  fields_changed: string[];
  href: string;
}

/** One publish or rollback that a watch caught; each list holds its first 100 entries, `*_count` all. */
export interface WatchEvent {
  object: "watch_event";
  id: string;
  watch_id: string;
  watch_name: string;
  at: string;
  release_id: string;
  previous_release_id: string | null;
  entered: WatchEntry[];
  left: WatchEntry[];
  changed: WatchEntry[];
  entered_count: number;
  left_count: number;
  changed_count: number;
}

export type NewWatch = { name: string } & ({ query: string } | { profiles: WatchedProfile[] });

export interface WatchesApi {
  create(watch: NewWatch, options?: CallOptions): Promise<Watch>;
  /** Every watch of the account, oldest first. */
  list(options?: CallOptions): AsyncGenerator<Watch, void, undefined>;
  get(id: string, options?: CallOptions): Promise<Watch>;
  delete(id: string, options?: CallOptions): Promise<Watch>;
  /** Every event of the watch, newest first. */
  events(id: string, options?: CallOptions): AsyncGenerator<WatchEvent, void, undefined>;
}

async function* pages<T>(http: CatalogHttp, baseUrl: string, first: string, options: CallOptions) {
  for (let path: string | null = first; path !== null; ) {
    const url = new URL(path, baseUrl).href;
    const page = (await (await http.get(url, { signal: options.signal })).json()) as { data?: unknown; next?: unknown };
    if (!Array.isArray(page.data)) throw new CatalogVerificationError(`${url}: not a list page`);
    yield* page.data as T[];
    path = typeof page.next === "string" ? page.next : null;
  }
}

export function watchesApi(http: CatalogHttp, baseUrl: string): WatchesApi {
  const url = (path: string) => new URL(path, baseUrl).href;
  return {
    create: async (watch, options = {}) =>
      (await (await http.change("POST", url("/v1/watches"), watch, options.signal)).json()) as Watch,
    list: (options = {}) => pages<Watch>(http, baseUrl, "/v1/watches?limit=100", options),
    get: async (id, options = {}) =>
      (await (await http.get(url(`/v1/watches/${pathSegment(id)}`), { signal: options.signal })).json()) as Watch,
    delete: async (id, options = {}) =>
      (await (
        await http.change("DELETE", url(`/v1/watches/${pathSegment(id)}`), undefined, options.signal)
      ).json()) as Watch,
    events: (id, options = {}) =>
      pages<WatchEvent>(http, baseUrl, `/v1/watches/${pathSegment(id)}/events?limit=100`, options),
  };
}
