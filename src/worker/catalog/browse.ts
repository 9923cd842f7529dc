/**
 * GET /v1/products and GET /v1/funnels (and their pinned forms): every product and every funnel of
 * a release in key order, from the lists the publish load keeps (query_products, query_funnels),
 * with the same keyset paging as the profile query.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import { strictQuery } from "../http/strict-query";
import { listPage, listSchema } from "../http/list-page";
import type { ProblemCode } from "../http/problem-types";
import { hexOf, type Manifest } from "../../common/catalog/manifest";
import { Sha256Digest } from "../../common/catalog/schema";
import { catalogRoute, type CatalogAccess } from "./access";
import { ReleaseIdParam } from "./params";
import { productProfilesPath } from "./profile-representation";
import { decodeCursor, encodeCursor } from "./query-cursor";
import { prefixUpperBound } from "./prefix-range";
import { queryRelease } from "./query-db";
import { catalogLimitParam, CursorParam } from "./query-params";
import { queryHook } from "./query-problem";
import { IF_NONE_MATCH } from "../http/openapi-responses";
import { listResponse, listResponses, pinnedListPath } from "./query-response";
import { resolveRelease } from "./service/release";
import { releasePath } from "./representation";

const ONCE = { error: "must be given once" };
const Limit = catalogLimitParam("Entries");

const ProductsQuery = strictQuery({
  q: z
    .string(ONCE)
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .optional()
    .openapi({
      param: { name: "q", in: "query" },
      description: "Products whose key or name starts with this text (case-insensitive).",
      example: "northwind",
    }),
  limit: Limit,
  cursor: CursorParam,
});
const FunnelsQuery = strictQuery({ limit: Limit, cursor: CursorParam });

const Product = z
  .strictObject({
    product_key: z.string(),
    name: z.string(),
    funnel_count: z.int(),
    href: z.string().openapi({ description: "The pinned URL of the product's profiles." }),
  })
  .openapi("Product");
const Funnel = z
  .strictObject({
    funnel_key: z.string(),
    name: z.string(),
    profile_count: z.int(),
    href: z.string().openapi({ description: "The pinned query of the funnel's profiles." }),
  })
  .openapi("Funnel");
const listOf = (item: z.ZodType, name: string) => listSchema(name, item, { release_id: Sha256Digest });

const responses = (schema: z.ZodType, what: string, ...codes: ProblemCode[]) =>
  listResponses(schema, `One page of the release's ${what}, in key order.`, ...codes);

interface Listing {
  route: "products" | "funnels";
  query: typeof ProductsQuery | typeof FunnelsQuery;
  schema: z.ZodType;
  summary: string;
}

const LISTINGS: Listing[] = [
  { route: "products", query: ProductsQuery, schema: listOf(Product, "ProductList"), summary: "products" },
  { route: "funnels", query: FunnelsQuery, schema: listOf(Funnel, "FunnelList"), summary: "funnels" },
];

export function registerBrowseRoutes(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const hook = queryHook(() => undefined);
  for (const listing of LISTINGS) {
    const name = listing.route === "products" ? "Products" : "Funnels";
    const current = catalogRoute(access, {
      method: "get",
      path: `/v1/${listing.route}`,
      operationId: `listCurrent${name}`,
      summary: `Every ${listing.summary.slice(0, -1)} of the current release, in key order`,
      parameters: [IF_NONE_MATCH],
      request: { query: listing.query },
      responses: responses(listing.schema, listing.summary, "catalog_unavailable"),
    });
    app.openapi(current, async (c) => browse(c, listing.route, await resolveRelease(c.env.CATALOG_KV), false), hook);
    const pinned = catalogRoute(access, {
      method: "get",
      path: `/v1/releases/{release_id}/${listing.route}`,
      operationId: `listRelease${name}`,
      summary: `Every ${listing.summary.slice(0, -1)} of a given release, in key order (immutable)`,
      parameters: [IF_NONE_MATCH],
      request: { params: z.object({ release_id: ReleaseIdParam }), query: listing.query },
      responses: responses(listing.schema, listing.summary, "invalid_release_id", "release_not_found"),
    });
    app.openapi(
      pinned,
      async (c) =>
        browse(c, listing.route, await resolveRelease(c.env.CATALOG_KV, c.req.valid("param").release_id), true),
      hook,
    );
  }
}

async function browse(c: Context<AppEnv>, route: Listing["route"], manifest: Manifest, pinned: boolean) {
  const params = c.req.valid("query" as never) as { q?: string; limit: number; cursor?: string };
  const limit = params.limit;
  const scope = { list: route, query: JSON.stringify([params.q ?? null]) };
  const after =
    params.cursor === undefined ? undefined : await decodeCursor(c.env, scope, manifest.release_id, params.cursor);
  const release = hexOf(manifest.release_id);
  const key = route === "products" ? "product_key" : "funnel_key";
  const where = ["release = ?"];
  const args: (string | number)[] = [release];
  if (after) {
    where.push(`${key} > ?`);
    args.push(after.value);
  }
  if (params.q) {
    // Prefix ranges, so both are index range scans: [q, upper bound of q).
    const prefix = params.q.toLowerCase();
    const upper = prefixUpperBound(prefix);
    const within = (column: string) => (upper === null ? `${column} >= ?` : `(${column} >= ? AND ${column} < ?)`);
    where.push(`(${within("product_key")} OR ${within("lower_name")})`);
    const bounds = upper === null ? [prefix] : [prefix, upper];
    args.push(...bounds, ...bounds);
  }
  const columns = route === "products" ? "product_key, name, funnel_count" : "funnel_key, name, profile_count";
  const { results } = await queryRelease(c.env.CATALOG_DB, manifest, [
    {
      text: `SELECT ${columns} FROM query_${route} WHERE ${where.join(" AND ")} ORDER BY ${key} LIMIT ?`,
      args: [...args, limit + 1],
    },
  ]);
  const rows = results[0] ?? [];
  const page: Record<string, unknown>[] = rows.slice(0, limit).map((row) => ({
    ...row,
    href:
      route === "products"
        ? productProfilesPath(manifest.release_id, String(row.product_key))
        : `${releasePath(manifest.release_id)}/profiles?funnel=${String(row.funnel_key)}`,
  }));
  const last = page.at(-1);
  const next =
    rows.length > limit && last
      ? pinnedListPath(
          manifest,
          route,
          c.req.url,
          await encodeCursor(c.env, scope, manifest.release_id, { value: String(last[key]), seq: 0 }),
        )
      : null;
  const body = listPage(page, next, { release_id: manifest.release_id });
  const pinnedPath = pinnedListPath(manifest, route, c.req.url, params.cursor);
  return listResponse(manifest, [JSON.stringify(body)], {
    pinnedPath,
    next,
    pinned,
    ifNoneMatch: c.req.header("If-None-Match"),
  });
}
