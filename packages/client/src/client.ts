/**
 * `createCatalogClient`: the typed client of the Readiness Catalog API. Web-standard APIs only, so
 * it runs in Node 22 and in a Worker; `@readiness-catalog/client/node` adds `download()`.
 */
import { watchesApi, type WatchesApi } from "./watches.js";
import { createCatalogHttp, type CatalogHttp, type Clock, type RetryEvent } from "./http-client.js";
import {
  compareReleases,
  profileHistory,
  type HistoryOptions,
  type ProfileHistoryEntry,
  type ReleaseChangesSummary,
} from "./history.js";
import { fetchManifest } from "./manifest.js";
import { lookUpProfile, type ProfileOptions, type ProfileResult } from "./profile-lookup.js";
import { streamProfiles } from "./profiles.js";
import {
  listEvery,
  queryEvery,
  queryPage,
  type FunnelEntry,
  type ProductEntry,
  type QueryFilters,
  type QueryOptions,
  type QueryPage,
} from "./query.js";
import type { RetryBudgetOptions } from "./retry-budget.js";
import type { RetryPolicy } from "./retry-policy.js";
import type { CallOptions, Manifest, Profile, ReleaseOptions } from "./types.js";
import {
  usage,
  usageErrors,
  type Usage,
  type UsageError,
  type UsageErrorsOptions,
  type UsageOptions,
} from "./usage.js";

export interface CatalogClientOptions {
  /** The API's origin, e.g. `https://api.readiness-catalog.dev` or `http://localhost:8787`. */
  baseUrl: string | URL;
  /** An API key (`sk_live_…`, `sk_test_…`) with read:catalog… */
  apiKey?: string;
  /** …or an OAuth 2.0 access token with read:catalog. Either is sent as `Authorization: Bearer`. */
  accessToken?: string;
  /** Default: the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Called before each retry (after a 429, 503, 5xx or network failure) with the delay and reason. */
  onRetry?: (event: RetryEvent) => void;
  /** Retry tuning (defaults in the README), and the clock and random source a test may replace. */
  retry?: { policy?: RetryPolicy; budget?: RetryBudgetOptions; clock?: Clock; random?: () => number };
}

export interface CatalogClient {
  /** The current release's manifest, checked: its fields, its part layout and its release id. */
  currentRelease(options?: CallOptions): Promise<Manifest>;
  /** A kept release's manifest, by id (`sha256:<hex>` or `<hex>`), checked like currentRelease(). */
  release(id: string, options?: CallOptions): Promise<Manifest>;
  /** One profile by product and funnel key, its Content-Digest verified. */
  profile(productKey: string, funnelKey: string, options?: ProfileOptions): Promise<ProfileResult>;
  /** One profile by id (`arp_…`), its Content-Digest verified. */
  profile(id: string, options?: ProfileOptions): Promise<ProfileResult>;
  /**
   * Every profile of one release (the current one, or `options.release`), streamed part by part in
   * constant memory; each part is verified before its profiles are yielded, the whole release at
   * the end (a CatalogVerificationError then means the profiles already yielded came from verified
   * parts of a release that did not verify as a whole).
   */
  profiles(options?: ReleaseOptions): AsyncGenerator<Profile, void, undefined>;
  /** The first page of a query (`GET /v1/profiles`): profiles, exact count, facets when asked. */
  query(filters?: QueryFilters, options?: QueryOptions): Promise<QueryPage>;
  /** Every match of a query, page after page in one release, each verified against its index. */
  queryAll(filters?: QueryFilters, options?: QueryOptions): AsyncGenerator<Profile, void, undefined>;
  /** Every product of a release in key order (`q`: key or name prefix). */
  products(options?: CallOptions & { release?: string; q?: string }): AsyncGenerator<ProductEntry, void, undefined>;
  /** Every funnel of a release in key order, with its number of profiles. */
  funnels(options?: CallOptions & { release?: string }): AsyncGenerator<FunnelEntry, void, undefined>;
  /** Every event that changed one profile (by product and funnel key), newest first, kept or pruned releases alike. */
  profileHistory(productKey: string, funnelKey: string, options?: HistoryOptions): AsyncGenerator<ProfileHistoryEntry>;
  /** The same, by id (`arp_…`). */
  profileHistory(id: string, options?: HistoryOptions): AsyncGenerator<ProfileHistoryEntry>;
  /** How release `releaseId` differs from `since`, counted: added, removed, changed and each field's old→new. */
  compareReleases(releaseId: string, since: string, options?: CallOptions): Promise<ReleaseChangesSummary>;
  /** Requests, errors and 429s of the account or one key, per hour or day (needs read:usage). */
  usage(options?: UsageOptions): Promise<Usage>;
  /** The recent error answers (the last 100 per key), newest first, with their request ids (needs read:usage). */
  usageErrors(options?: UsageErrorsOptions): AsyncGenerator<UsageError, void, undefined>;
  /** Watches of the account (scopes `read:watches`, `write:watches`): create, list, get, delete, events. */
  watches: WatchesApi;
}

export interface ClientContext {
  http: CatalogHttp;
  baseUrl: string;
}

export function clientContext(options: CatalogClientOptions): ClientContext {
  if (options.apiKey !== undefined && options.accessToken !== undefined)
    throw new TypeError("createCatalogClient: pass apiKey or accessToken, not both");
  const http = createCatalogHttp({
    key: options.apiKey ?? options.accessToken,
    fetch: options.fetch,
    onRetry: options.onRetry,
    policy: options.retry?.policy,
    budget: options.retry?.budget,
    clock: options.retry?.clock,
    random: options.retry?.random,
  });
  return { http, baseUrl: new URL(options.baseUrl).href };
}

export function catalogClient({ http, baseUrl }: ClientContext): CatalogClient {
  return {
    currentRelease: (options = {}) => fetchManifest(http, baseUrl, undefined, options.signal),
    release: (id, options = {}) => fetchManifest(http, baseUrl, id, options.signal),
    profile: (first: string, second?: string | ProfileOptions, third?: ProfileOptions) =>
      typeof second === "string"
        ? lookUpProfile(http, baseUrl, { product: first, funnel: second }, third)
        : lookUpProfile(http, baseUrl, { id: first }, second),
    async *profiles(options = {}) {
      const manifest = await fetchManifest(http, baseUrl, options.release, options.signal);
      yield* streamProfiles({ http, baseUrl, manifest, signal: options.signal }, options.onProgress);
    },
    query: (filters = {}, options = {}) => queryPage(http, baseUrl, filters, options),
    queryAll: (filters = {}, options = {}) => queryEvery(http, baseUrl, filters, options),
    products: (options = {}) => listEvery<ProductEntry>(http, baseUrl, "products", options),
    funnels: (options = {}) => listEvery<FunnelEntry>(http, baseUrl, "funnels", options),
    profileHistory: (first: string, second?: string | HistoryOptions, third?: HistoryOptions) =>
      typeof second === "string"
        ? profileHistory(http, baseUrl, { product: first, funnel: second }, third)
        : profileHistory(http, baseUrl, { id: first }, second),
    compareReleases: (releaseId, since, options = {}) => compareReleases(http, baseUrl, releaseId, since, options),
    usage: (options = {}) => usage(http, baseUrl, options),
    usageErrors: (options = {}) => usageErrors(http, baseUrl, options),
    watches: watchesApi(http, baseUrl),
  };
}

export function createCatalogClient(options: CatalogClientOptions): CatalogClient {
  return catalogClient(clientContext(options));
}
