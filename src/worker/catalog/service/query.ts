/**
 * A query of one release's profiles (docs/contract.md, "Querying the catalog"): the page, the
 * exact count, the facets and where the next page starts, from the query engine (query-run.ts).
 * A bad cursor is still the engine's refusal (query-cursor.ts, the one seam of cursors).
 */
import type { Manifest } from "../../../common/catalog/manifest";
import type { Profile } from "../../../common/catalog/schema";
import type { ManifestKv } from "../../../common/catalog/store";
import { releaseOfCursor } from "../query-cursor";
import type { ProfileQuery } from "../query-params";
import { cursorScopeOf, type QueryAnswer, runProfileQuery } from "../query-run";
import { catalogMiss } from "./errors";
import { resolveRelease } from "./release";

export type { ProfileQuery } from "../query-params";
export type { QueryAnswer } from "../query-run";

export interface QueriedProfiles extends QueryAnswer {
  /** The page's profiles, parsed, in order (for doors that show them rather than stream their bytes). */
  profiles: () => Profile[];
}

export interface QueryOptions {
  /** Count each filtered facet without its own filter, so a second value of it can be chosen. */
  disjunctive?: boolean;
}

export async function queryProfiles(
  env: { CATALOG_DB: D1Database; RELEASES: R2Bucket },
  manifest: Manifest,
  query: ProfileQuery,
  options: QueryOptions = {},
): Promise<QueriedProfiles> {
  const found = await runProfileQuery(env, manifest, query, options);
  const decoder = new TextDecoder();
  return { ...found, profiles: () => found.bytes.map((bytes) => JSON.parse(decoder.decode(bytes)) as Profile) };
}

/**
 * The release a query reads: a continued query (a `cursor`) reads the release it started in, as
 * REST's pinned `next` does, even after a publish; else `releaseId`, or the current release.
 */
export async function releaseOfQuery(
  env: { CATALOG_KV: ManifestKv },
  query: ProfileQuery,
  releaseId?: string,
): Promise<Manifest> {
  if (query.cursor === undefined) return resolveRelease(env.CATALOG_KV, releaseId);
  const started = await releaseOfCursor(env, cursorScopeOf(query), query.cursor);
  const asked = releaseId === undefined ? undefined : await resolveRelease(env.CATALOG_KV, releaseId);
  if (asked && asked.release_id !== started) throw catalogMiss({ kind: "cursor_of_other_release", started });
  return asked ?? resolveRelease(env.CATALOG_KV, started);
}

/** The pinned path of a query of `releaseId` with these query parameters (REST's `next` of a page). */
export const pinnedQueryPath = (releaseId: string, parameters: URLSearchParams) =>
  `/v1/releases/${releaseId}/profiles?${parameters}`;
