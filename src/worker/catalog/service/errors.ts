/**
 * The typed misses of the catalog read service: what went wrong, as facts, never as words. Each
 * door says them in its own words: REST as problem+json (`catalog/rest-problems.ts`), MCP as tool
 * errors (`mcp/catalog-errors.ts`), the explorer as pages (`explore/refusals.ts`).
 */
export type ProfileRef = { product: string; funnel: string } | { id: string };

export type CatalogMiss =
  /** No release has been published on this deployment. */
  | { kind: "no_release" }
  /** The current pointer names a release this location cannot read yet (KV replicates eventually). */
  | { kind: "current_not_readable"; releaseId: string }
  /** Some stored bytes of a release (its index, its parts) cannot be read right now. */
  | { kind: "storage_unreadable"; releaseId: string; what: "index" | "parts" }
  | { kind: "release_not_found"; releaseId: string }
  /** A release no longer kept (only the current one and the 5 before it are). */
  | { kind: "release_gone"; releaseId: string; oldestKept: string }
  /** A release published before profile indexes: its profiles cannot be looked up one by one. */
  | { kind: "release_not_indexed"; releaseId: string }
  | { kind: "profile_not_found"; releaseId: string; ref: ProfileRef }
  /** A changes cursor that is not a place in this list; `reason` says why. */
  | { kind: "invalid_changes_cursor"; reason: string }
  /** A query cursor of release `started`, sent with a pinned release that is another one. */
  | { kind: "cursor_of_other_release"; started: string }
  /** A profile no release of the history ever held (a removed one still has its history). */
  | { kind: "profile_never_existed"; ref: ProfileRef }
  /** A release never made current since the history began; `side` says which one of a comparison. */
  | { kind: "release_not_in_history"; releaseId: string; side: "release_id" | "since" }
  /** A history cursor made for another profile, changed, or not made here. */
  | { kind: "invalid_history_cursor" };

export class CatalogReadError extends Error {
  constructor(readonly miss: CatalogMiss) {
    super(miss.kind);
  }
}

export const catalogMiss = (miss: CatalogMiss) => new CatalogReadError(miss);

/** True when `error` is the service's miss of this kind. */
export const isMiss = <K extends CatalogMiss["kind"]>(
  error: unknown,
  kind: K,
): error is CatalogReadError & { miss: Extract<CatalogMiss, { kind: K }> } =>
  error instanceof CatalogReadError && error.miss.kind === kind;
