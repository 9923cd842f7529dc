/**
 * GET /v1/releases/{release_id}/changes/profiles?since={release_id}: the bytes, in `release_id`'s
 * document, of every profile added or changed since `since`, concatenated in the order of the
 * change list — one request for what `sync` would otherwise fetch profile by profile. Stored per
 * pair with the change list (changes-store.ts); immutable.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { strictQuery } from "../http/strict-query";
import { Problem } from "../http/problem";
import { hexOf, storageKeys } from "../../common/catalog/manifest";
import { problemResponses } from "../http/openapi-responses";
import { catalogRoute, plainResponse, type CatalogAccess } from "./access";
import { IDENTITY_CODING } from "./identity-only";
import { CODING_HEADERS, RELEASE_HEADERS } from "./openapi-responses";
import { ReleaseIdParam } from "./params";
import { CHANGES_PROBLEMS, changesParamProblem } from "./release-changes";
import { CACHE_PINNED } from "./representation";
import { changesBetween, changesPair } from "./service/changes";

export function registerChangedProfilesRoute(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const route = catalogRoute(access, {
    method: "get",
    path: "/v1/releases/{release_id}/changes/profiles",
    operationId: "getChangedProfiles",
    summary: "The bytes of every profile added or changed between two kept releases, in one body",
    description:
      "The profiles' bytes in `release_id`'s document, concatenated in the order of `/v1/releases/{release_id}/changes?since=` " +
      "(each entry's `length` bytes in turn, each matching its `sha256`); removed profiles have none. Empty when nothing was added or changed. " +
      "Not kept when they are more than half the document (`409 changes_too_large`: download the document).",
    request: {
      params: z.object({ release_id: ReleaseIdParam }),
      query: strictQuery({
        since: ReleaseIdParam.openapi({
          param: { name: "since", in: "query" },
          description: "The release the copy holds: `sha256:<64 hex>` or the bare hex.",
        }),
      }),
    },
    responses: {
      200: {
        description: "The concatenated bytes.",
        headers: { ...RELEASE_HEADERS, ...CODING_HEADERS },
        content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
      },
      ...CHANGES_PROBLEMS,
      ...problemResponses("changes_too_large"),
    },
  });
  app.openapi(
    route,
    async (c) => {
      const { release: newer, since: older } = await changesPair(
        c.env,
        c.req.valid("param").release_id,
        c.req.valid("query").since,
      );
      await changesBetween(c.env, newer, older);
      const headers = new Headers({
        "Content-Type": "application/octet-stream",
        "Catalog-Release": newer.release_id,
        "Cache-Control": CACHE_PINNED,
        ...IDENTITY_CODING,
      });
      if (newer.release_id === older.release_id) return plainResponse(new Response(new Uint8Array(), { headers }));
      const key = storageKeys.changedProfiles(hexOf(newer.release_id), hexOf(older.release_id));
      const object = await c.env.RELEASES.get(key);
      if (!object)
        throw new Problem("release_unavailable", `The changed profiles of ${newer.release_id} are not readable yet.`);
      if (object.customMetadata?.stored === "false") {
        await object.body.cancel();
        throw new Problem(
          "changes_too_large",
          `The profiles added or changed since ${older.release_id} are more than half of ${newer.release_id}'s document; download the document instead.`,
        );
      }
      headers.set("Content-Length", String(object.size));
      return plainResponse(new Response(object.body, { headers }));
    },
    changesParamProblem,
  );
}
