/**
 * GET /v1/profiles and GET /v1/releases/{release_id}/profiles: filtered, sorted, faceted queries of
 * one release (docs/contract.md, "Querying the catalog"). Matching rows come from the D1 query
 * tables by index (query-plan.ts), the profiles' bytes from the release's parts, as single lookups
 * serve them; the counts come from the tables, or from the counts kept at publish.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import type { ProblemCode } from "../http/problem-types";
import { hexOf, type Manifest } from "../../common/catalog/manifest";
import { byCountThenValue, isTopOnlyFacet, TOP_FACET_VALUES } from "../../common/catalog/query-fields";
import { Profile, Sha256Digest } from "../../common/catalog/schema";
import { catalogRoute, type CatalogAccess } from "./access";
import { ReleaseIdParam } from "./params";
import { profileBytes } from "./query-bytes";
import { decodeCursor, encodeCursor } from "./query-cursor";
import { queryRelease } from "./query-db";
import { allowedValuesOf, ProfileQueryParams, profileQueryOf, type ProfileQuery } from "./query-params";
import {
  countSql,
  keptCountSql,
  keptFacetFilter,
  keptFacetsSql,
  pageSql,
  scannedFacetSql,
  sortColumnOf,
  type Sql,
} from "./query-plan";
import { queryHook } from "./query-problem";
import { listResponse, listResponses, pinnedListPath } from "./query-response";
import { currentRelease, pinnedRelease } from "./release-lookup";

const Facets = z
  .record(z.string(), z.record(z.string(), z.int()))
  .openapi({ description: "Per asked field, the number of matches with each value (largest first)." });

const ProfileList = z
  .strictObject({
    object: z.literal("list"),
    release_id: Sha256Digest,
    count: z.int().openapi({ description: "The exact number of matches." }),
    data: z
      .array(Profile)
      .openapi({ description: "The page: each profile exactly as its bytes stand in the document." }),
    has_more: z.boolean(),
    next: z.string().nullable().openapi({ description: "The next page's pinned URL, or null." }),
    facets: Facets.optional(),
  })
  .openapi("ProfileList");

const responses = (...codes: ProblemCode[]) =>
  listResponses(ProfileList, "One page of the matches, in the asked order.", ...codes);

const DESCRIPTION =
  "Filters combine with *and*; a comma-separated list means *any of*. Keyset paging: `next` is a pinned URL that carries " +
  "the query, so paging stays in the release it started in. Bad input is one 400 listing every problem.";

export function registerProfileQueryRoutes(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const hook = queryHook(allowedValuesOf);
  const current = catalogRoute(access, {
    method: "get",
    path: "/v1/profiles",
    operationId: "queryCurrentProfiles",
    summary: "Query the profiles of the current release",
    description: `${DESCRIPTION} Content-Location names the pinned URL of the same page.`,
    request: { query: ProfileQueryParams },
    responses: responses("catalog_unavailable"),
  });
  app.openapi(current, async (c) => answer(c, await currentRelease(c.env.CATALOG_KV), false), hook);

  const pinned = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/{release_id}/profiles",
    operationId: "queryReleaseProfiles",
    summary: "Query the profiles of a given release (immutable)",
    description: DESCRIPTION,
    request: { params: z.object({ release_id: ReleaseIdParam }), query: ProfileQueryParams },
    responses: responses("invalid_release_id", "release_not_found"),
  });
  app.openapi(
    pinned,
    async (c) => answer(c, await pinnedRelease(c.env.CATALOG_KV, c.req.valid("param").release_id), true),
    hook,
  );
}

/** What a cursor is bound to: the release and every parameter that decides the matches and their order. */
const bindingOf = (manifest: Manifest, query: ProfileQuery) =>
  JSON.stringify([
    manifest.release_id,
    [...query.filters].map(([name, values]) => [name, [...values].sort()]).sort(),
    query.q ?? null,
    query.testedAfter ?? null,
    query.testedBefore ?? null,
    query.sort,
  ]);

async function answer(c: Context<AppEnv>, manifest: Manifest, pinned: boolean) {
  const query = profileQueryOf(c.req.valid("query" as never));
  const release = hexOf(manifest.release_id);
  const binding = bindingOf(manifest, query);
  const after = query.cursor === undefined ? undefined : await decodeCursor(binding, query.cursor);

  const unfiltered = query.filters.size === 0 && !query.q && !query.testedAfter && !query.testedBefore;
  const statements: Sql[] = [pageSql(release, query, after)];
  const count = unfiltered ? undefined : (keptCountSql(release, query) ?? countSql(release, query));
  if (count) statements.push(count);
  const kept = query.facets.length ? keptFacetFilter(query) : undefined;
  if (query.facets.length && kept !== undefined) statements.push(keptFacetsSql(release, kept, query.facets));
  else for (const facet of query.facets) statements.push(scannedFacetSql(release, query, facet));

  const { release: loaded, results } = await queryRelease(c.env.CATALOG_DB, manifest, statements);
  const [rows, ...rest] = results as [PageRow[], ...Record<string, unknown>[][]];
  const total = count ? Number(rest.shift()?.[0]?.n ?? 0) : loaded.profile_count;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last
      ? await encodeCursor(binding, { value: last[sortColumnOf(query.sort) as keyof PageRow], seq: last.seq })
      : undefined;
  const bytes = await profileBytes(
    c.env.RELEASES,
    manifest,
    page.map((row) => ({ offset: row.byte_offset, length: row.byte_length })),
  );

  const next = nextCursor ? pinnedListPath(manifest, "profiles", c.req.url, nextCursor) : null;
  const pieces: (string | Uint8Array)[] = [
    `{"object":"list","release_id":${JSON.stringify(manifest.release_id)},"count":${total},"data":[`,
  ];
  for (const [i, profile] of bytes.entries()) pieces.push(...(i ? [",", profile] : [profile]));
  pieces.push(`],"has_more":${next !== null},"next":${JSON.stringify(next)}`);
  if (query.facets.length) pieces.push(`,"facets":${JSON.stringify(facetsOf(query.facets, rest.flat()))}`);
  pieces.push("}");
  const pinnedPath = pinnedListPath(manifest, "profiles", c.req.url, query.cursor);
  return listResponse(manifest, pieces, { pinnedPath, next, pinned });
}

interface PageRow {
  seq: number;
  grade_rank: number;
  last_tested_at: string;
  byte_offset: number;
  byte_length: number;
  sha256: string;
}

/** Per asked facet, in the order asked: values by count, largest first, ties by value. */
function facetsOf(asked: string[], rows: Record<string, unknown>[]): Record<string, Record<string, number>> {
  const facets: Record<string, Record<string, number>> = {};
  for (const facet of asked) {
    const entries = rows
      .filter((row) => row.facet === facet)
      .map((row) => [String(row.value), Number(row.n)] as [string, number])
      .filter(([, n]) => n > 0)
      .sort(byCountThenValue);
    facets[facet] = Object.fromEntries(isTopOnlyFacet(facet) ? entries.slice(0, TOP_FACET_VALUES) : entries);
  }
  return facets;
}
