/**
 * One profile by scope or by id, from the current release or a pinned one:
 * GET /v1/profiles/{product_key}/{funnel_key}, GET /v1/profiles/{agent_readiness_profile_id},
 * and the same under /v1/releases/{release_id}/profiles/…. Served through the release index
 * (index-reader.ts): the body is exactly the profile's bytes in the release's document.
 */
import { z, type OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import { problemResponses, RATE_LIMIT_HEADERS } from "../http/openapi-responses";
import type { AppEnv } from "../http/context";
import { NO_QUERY } from "../http/strict-query";
import type { ProblemCode } from "../http/problem-types";
import type { Manifest } from "../../common/catalog/manifest";
import { Profile } from "../../common/catalog/schema";
import { catalogRoute, plainResponse, type CatalogAccess } from "./access";
import { IndexReader } from "./index-reader";
import { BYTE_HEADERS, NOT_MODIFIED, PARTIAL_CONTENT } from "./openapi-responses";
import { ReleaseIdParam } from "./params";
import { FunnelKeyParam, ProductKeyParam, ProfileIdParam, profileParamProblem } from "./profile-params";
import { profileIdPath, profileRepresentation, profileScopePath } from "./profile-representation";
import { profileNotFound } from "./profile-not-found";
import { isMiss } from "./service/errors";
import { locateProfile, type ProfileRef } from "./service/profile";
import { resolveRelease } from "./service/release";
import { serveBytes } from "./serve-bytes";

const header = (description: string) => ({ description, schema: { type: "string" as const } });

export const PROFILE_HEADERS = {
  ...BYTE_HEADERS,
  ...RATE_LIMIT_HEADERS,
  ETag: header('Strong: `"sha256:<hex>"`, the SHA-256 of the profile\'s bytes (If-None-Match → 304).'),
  "Content-Digest": header("RFC 9530 `sha-256=:<base64>:` of the body (200 only), from the release index."),
  "Catalog-Document-Range": header("`bytes <first>-<last>/<size>`: where these bytes are in the release's document."),
  "Content-Location": header("The pinned URL of this profile (on the routes that follow the current release)."),
};

const profileResponses = (...codes: ProblemCode[]): RouteConfig["responses"] => ({
  200: {
    description: "The profile: exactly its bytes in the release's document (RFC 8785).",
    headers: PROFILE_HEADERS,
    content: { "application/json": { schema: Profile } },
  },
  206: PARTIAL_CONTENT,
  304: NOT_MODIFIED,
  ...problemResponses(
    ...codes,
    "profile_not_found",
    "release_not_indexed",
    "range_not_satisfiable",
    "release_unavailable",
  ),
});

const DESCRIPTION =
  "The body is exactly the profile's bytes in the release's document; `Catalog-Document-Range` says where, so a client " +
  "holding the document or its parts can check them. ETag and Content-Digest are the profile's SHA-256 from the release index. " +
  "Served from at most two small index reads plus the profile's bytes, whatever the catalog's size.";

export function registerProfileRoutes(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const byScope = { product_key: ProductKeyParam, funnel_key: FunnelKeyParam };
  const currentByScope = catalogRoute(access, {
    method: "get",
    path: "/v1/profiles/{product_key}/{funnel_key}",
    operationId: "getCurrentProfileByScope",
    summary: "One profile of the current release, by product and funnel key",
    description: `${DESCRIPTION} Content-Location names the pinned URL.`,
    request: { query: NO_QUERY, params: z.object(byScope) },
    responses: profileResponses("invalid_scope_key", "catalog_unavailable"),
  });
  app.openapi(
    currentByScope,
    async (c) => {
      const { product_key, funnel_key } = c.req.valid("param");
      return answer(c, await resolveRelease(c.env.CATALOG_KV), { product: product_key, funnel: funnel_key }, false);
    },
    profileParamProblem,
  );

  const pinnedByScope = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/{release_id}/profiles/{product_key}/{funnel_key}",
    operationId: "getReleaseProfileByScope",
    summary: "One profile of a given release, by product and funnel key (immutable)",
    description: DESCRIPTION,
    request: { query: NO_QUERY, params: z.object({ release_id: ReleaseIdParam, ...byScope }) },
    responses: profileResponses("invalid_release_id", "invalid_scope_key", "release_not_found"),
  });
  app.openapi(
    pinnedByScope,
    async (c) => {
      const { release_id, product_key, funnel_key } = c.req.valid("param");
      return answer(
        c,
        await resolveRelease(c.env.CATALOG_KV, release_id),
        { product: product_key, funnel: funnel_key },
        true,
      );
    },
    profileParamProblem,
  );

  const currentById = catalogRoute(access, {
    method: "get",
    path: "/v1/profiles/{agent_readiness_profile_id}",
    operationId: "getCurrentProfileById",
    summary: "One profile of the current release, by id",
    description: `${DESCRIPTION} Content-Location names the pinned URL.`,
    request: { query: NO_QUERY, params: z.object({ agent_readiness_profile_id: ProfileIdParam }) },
    responses: profileResponses("invalid_profile_id", "catalog_unavailable"),
  });
  app.openapi(
    currentById,
    async (c) =>
      answer(c, await resolveRelease(c.env.CATALOG_KV), { id: c.req.valid("param").agent_readiness_profile_id }, false),
    profileParamProblem,
  );

  const pinnedById = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/{release_id}/profiles/{agent_readiness_profile_id}",
    operationId: "getReleaseProfileById",
    summary: "One profile of a given release, by id (immutable)",
    description: DESCRIPTION,
    request: {
      query: NO_QUERY,
      params: z.object({ release_id: ReleaseIdParam, agent_readiness_profile_id: ProfileIdParam }),
    },
    responses: profileResponses("invalid_release_id", "invalid_profile_id", "release_not_found"),
  });
  app.openapi(
    pinnedById,
    async (c) => {
      const { release_id, agent_readiness_profile_id } = c.req.valid("param");
      return answer(c, await resolveRelease(c.env.CATALOG_KV, release_id), { id: agent_readiness_profile_id }, true);
    },
    profileParamProblem,
  );
}

/** The pinned URL of the same lookup is Content-Location unless the route is pinned already. */
async function answer(c: Context<AppEnv>, manifest: Manifest, ref: ProfileRef, pinned: boolean) {
  const profile = await locateProfile(c.env, manifest, ref).catch(async (error: unknown) => {
    if (!isMiss(error, "profile_not_found")) throw error;
    const miss = "id" in ref ? ref : { productKey: ref.product, funnelKey: ref.funnel };
    throw await profileNotFound(IndexReader.of(c.env.RELEASES, manifest, "scope"), manifest, miss);
  });
  const pinnedPath =
    "id" in ref
      ? profileIdPath(manifest.release_id, ref.id)
      : profileScopePath(manifest.release_id, ref.product, ref.funnel);
  return plainResponse(await serveBytes(c, profileRepresentation(manifest, profile, pinned ? undefined : pinnedPath)));
}
