/**
 * @readiness-catalog/client: a typed, verifying client of the Readiness Catalog API for Node 22 and
 * Workers (web-standard APIs only). `@readiness-catalog/client/node` adds `download()`.
 */
export { createCatalogClient, type CatalogClient, type CatalogClientOptions } from "./client.js";
export { CatalogApiError, CatalogVerificationError } from "./errors.js";
export type { HistoryOptions, ProfileHistoryEntry, ReleaseChangesSummary } from "./history.js";
export type { Clock, RetryEvent } from "./http-client.js";
export type { ProfileOptions, ProfileResult } from "./profile-lookup.js";
export type { FunnelEntry, ProductEntry, QueryFilters, QueryOptions, QueryPage, QuerySort } from "./query.js";
export { DEFAULT_RETRY_BUDGET, type RetryBudgetOptions } from "./retry-budget.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.js";
export type * from "./types.js";
export type { Usage, UsageError, UsageErrorsOptions, UsageOptions, UsagePoint } from "./usage.js";
export type { NewWatch, Watch, WatchEntry, WatchEvent, WatchedProfile, WatchesApi } from "./watches.js";
