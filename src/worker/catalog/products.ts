/**
 * GET /v1/products/{product_key}/profiles and GET /v1/releases/{release_id}/products/{product_key}/profiles:
 * the funnels of one product, from the scope index (product-listing.ts), a bounded page at a time,
 * answered as every list is (docs/contract.md, "Lists"), paged by an authenticated cursor naming
 * the last funnel of the page. Each entry carries what verifies the profile — its byte range in the
 * document and its SHA-256 — and the pinned URL that serves it.
 */
import { z, type OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import { problemResponses, RATE_LIMIT_HEADERS } from "../http/openapi-responses";
import type { AppEnv } from "../http/context";
import { strictQuery } from "../http/strict-query";
import { cursorParam, openTextCursor, sealCursor, type CursorScope } from "../http/cursor";
import { limitParam } from "../http/limit-param";
import { listPage, listSchema } from "../http/list-page";
import type { ProblemCode } from "../http/problem-types";
import { asDigest, contentDigestOf, toHex } from "../../common/catalog/digest";
import type { Manifest } from "../../common/catalog/manifest";
import { Sha256Digest } from "../../common/catalog/schema";
import { catalogRoute, plainResponse, type CatalogAccess } from "./access";
import { notModified } from "./conditional";
import { withIdentityCoding } from "./identity-only";
import { IndexReader } from "./index-reader";
import { CODING_HEADERS, NOT_MODIFIED, RELEASE_HEADERS } from "./openapi-responses";
import { ReleaseIdParam } from "./params";
import { LISTING_LIMIT, productPage } from "./product-listing";
import { profileNotFound } from "./profile-not-found";
import { ProductKeyParam, profileParamProblem } from "./profile-params";
import { productProfilesPath, profileScopePath } from "./profile-representation";
import { resolveRelease } from "./service/release";
import { CACHE_CURRENT, CACHE_PINNED } from "./representation";

const ProductProfile = z
  .strictObject({
    funnel_key: z.string(),
    agent_readiness_profile_id: z.string(),
    href: z.string().openapi({ description: "The pinned URL of the profile." }),
    offset: z.int().openapi({ description: "Where the profile's bytes start in the release's document." }),
    length: z.int(),
    sha256: Sha256Digest.openapi({ description: "SHA-256 of the profile's bytes (its ETag and Content-Digest)." }),
  })
  .openapi("ProductProfile");

const ProductProfiles = listSchema("ProductProfiles", ProductProfile, {
  release_id: Sha256Digest,
  product_key: z.string(),
});

const ListingQuery = strictQuery({
  limit: limitParam({ what: "Profiles", max: LISTING_LIMIT, default: LISTING_LIMIT }),
  cursor: cursorParam("cursor"),
});
type ListingQuery = z.infer<typeof ListingQuery>;

/** A page starts after the funnel its cursor names, in the release the listing started in. */
const cursorScope = (productKey: string): CursorScope => ({
  list: "product-profiles",
  query: productKey,
  parameter: "cursor",
  source: "`next` URL",
});

const header = (description: string) => ({ description, schema: { type: "string" as const } });
const listingResponses = (...codes: ProblemCode[]): RouteConfig["responses"] => ({
  200: {
    description: `At most \`limit\` (default ${LISTING_LIMIT}) of the product's profiles, in funnel order; follow \`next\` for more.`,
    headers: {
      ...RELEASE_HEADERS,
      ...RATE_LIMIT_HEADERS,
      ...CODING_HEADERS,
      "Content-Digest": header("RFC 9530 `sha-256=:<base64>:` of the body."),
      "Content-Location": header("The pinned URL of this page (on /v1/products/… only)."),
      Link: header('`<next page>; rel="next"` while the product has more funnels (RFC 8288).'),
    },
    content: { "application/json": { schema: ProductProfiles } },
  },
  304: NOT_MODIFIED,
  ...problemResponses(...codes, "invalid_scope_key", "profile_not_found", "release_not_indexed", "release_unavailable"),
});

export function registerProductRoutes(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const current = catalogRoute(access, {
    method: "get",
    path: "/v1/products/{product_key}/profiles",
    operationId: "listCurrentProductProfiles",
    summary: "The funnels of one product in the current release",
    description: "Content-Location names the pinned URL of the same page.",
    request: { params: z.object({ product_key: ProductKeyParam }), query: ListingQuery },
    responses: listingResponses("catalog_unavailable"),
  });
  app.openapi(
    current,
    async (c) =>
      listing(c, await resolveRelease(c.env.CATALOG_KV), c.req.valid("param").product_key, c.req.valid("query"), false),
    profileParamProblem,
  );

  const pinned = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/{release_id}/products/{product_key}/profiles",
    operationId: "listReleaseProductProfiles",
    summary: "The funnels of one product in a given release (immutable)",
    request: {
      params: z.object({ release_id: ReleaseIdParam, product_key: ProductKeyParam }),
      query: ListingQuery,
    },
    responses: listingResponses("invalid_release_id", "release_not_found"),
  });
  app.openapi(
    pinned,
    async (c) => {
      const { release_id, product_key } = c.req.valid("param");
      return listing(c, await resolveRelease(c.env.CATALOG_KV, release_id), product_key, c.req.valid("query"), true);
    },
    profileParamProblem,
  );
}

async function listing(
  c: Context<AppEnv>,
  manifest: Manifest,
  productKey: string,
  query: ListingQuery,
  pinned: boolean,
) {
  const scope = IndexReader.of(c.env.RELEASES, manifest, "scope");
  const { cursor, limit } = query;
  const after =
    cursor === undefined
      ? undefined
      : await openTextCursor(c.env, cursorScope(productKey), cursor, manifest.release_id);
  const { profiles, more } = await productPage(scope, productKey, after, limit);
  if (profiles.length === 0 && after === undefined) throw await profileNotFound(scope, manifest, { productKey });
  const pagePath = (from?: string) =>
    `${productProfilesPath(manifest.release_id, productKey)}${from === undefined ? "" : `?limit=${limit}&cursor=${from}`}`;
  const last = profiles.at(-1);
  const nextCursor =
    more && last
      ? await sealCursor(c.env, cursorScope(productKey), { release: manifest.release_id, at: last.funnelKey })
      : undefined;
  const next = nextCursor === undefined ? null : pagePath(nextCursor);
  const search = new URL(c.req.url).search;
  // The page is a function of the release and the URL, so the release id makes a strong validator.
  const etag = `"${manifest.release_id}/products/${productKey}${search}"`;
  const headers = new Headers({
    ETag: etag,
    "Catalog-Release": manifest.release_id,
    "Cache-Control": pinned ? CACHE_PINNED : CACHE_CURRENT,
  });
  if (!pinned) headers.set("Content-Location", `${productProfilesPath(manifest.release_id, productKey)}${search}`);
  if (next) headers.set("Link", `<${next}>; rel="next"`);
  const unchanged = notModified(c.req.header("If-None-Match"), etag, headers);
  if (unchanged) return plainResponse(unchanged);

  const data = profiles.map((p) => ({
    funnel_key: p.funnelKey,
    agent_readiness_profile_id: p.id,
    href: profileScopePath(manifest.release_id, productKey, p.funnelKey),
    offset: p.offset,
    length: p.length,
    sha256: asDigest(p.sha256),
  }));
  const page = listPage(data, next, { release_id: manifest.release_id, product_key: productKey });
  const body = new TextEncoder().encode(JSON.stringify(page));
  // A page is small and bounded (LISTING_LIMIT entries), made here: its digest is too, natively.
  headers.set("Content-Digest", contentDigestOf(toHex(await crypto.subtle.digest("SHA-256", body))));
  headers.set("Content-Type", "application/json");
  // The digest and the strong ETag name these very bytes: never content-coded (identity-only.ts).
  withIdentityCoding(headers);
  return plainResponse(new Response(body, { status: 200, headers }));
}
