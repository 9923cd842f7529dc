/**
 * The client package's profile() inside workerd against the real lookup routes: by scope and by
 * id, current and pinned, the bytes where Catalog-Document-Range says, a typed 404 and 400.
 * The routes come with the profile index (branch lookup); until the app serves them this file
 * reports its test as skipped, and it runs by itself once /openapi.json lists /v1/profiles/….
 * (It passed against lookup ddecac7 merged into this branch.)
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CatalogApiError, createCatalogClient, type Profile } from "../../packages/client/src/index.js";
import app from "../../src/worker/index";
import { sharedTestKey } from "./auth-fixtures";
import { API_ORIGIN } from "./support/api";
import { publish, testRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const base = testRelease("base");
const smaller = testRelease("smaller");
const profiles = (JSON.parse(new TextDecoder().decode(base.document)) as { data: Profile[] }).data;

const contexts: ExecutionContext[] = [];
const workerFetch = async (request: Request) => {
  const ctx = createExecutionContext();
  contexts.push(ctx);
  return app.fetch(request, env, ctx);
};

const openapi = (await (await workerFetch(new Request(`${API_ORIGIN}/openapi.json`))).json()) as {
  paths: Record<string, unknown>;
};
const lookupRoutes = Object.keys(openapi.paths).some((route) => route.startsWith("/v1/profiles/"));

beforeEach(() => resetStorage());
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => waitOnExecutionContext(ctx)));
});

describe.runIf(lookupRoutes)("profile() against the real lookup routes", () => {
  it("finds a profile by scope and by id, current and pinned, with its release and document range", async () => {
    await publish(base);
    const client = createCatalogClient({ baseUrl: API_ORIGIN, apiKey: await sharedTestKey(), fetch: workerFetch });
    for (const expected of [profiles[0]!, profiles[7]!, profiles.at(-1)!]) {
      const byScope = await client.profile(expected.scope.product.key, expected.scope.funnel.key);
      expect(byScope.profile).toEqual(expected);
      expect(byScope.releaseId).toBe(base.manifest.release_id);
      const { first, last } = byScope.documentRange!;
      expect(JSON.parse(new TextDecoder().decode(base.document.subarray(first, last + 1)))).toEqual(expected);
      expect(
        (await client.profile(expected.agent_readiness_profile_id, { release: base.manifest.release_id })).profile,
      ).toEqual(expected);
    }
    await publish(smaller);
    const pinned = await client.profile(profiles.at(-1)!.agent_readiness_profile_id, {
      release: base.manifest.release_id,
    });
    expect(pinned.releaseId).toBe(base.manifest.release_id);
  });

  it("an unknown profile is a CatalogApiError 404 profile_not_found; a malformed key the server's 400", async () => {
    await publish(base);
    const client = createCatalogClient({ baseUrl: API_ORIGIN, apiKey: await sharedTestKey(), fetch: workerFetch });
    const missing = await client.profile("no-such-product", "checkout").catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(CatalogApiError);
    expect(missing).toMatchObject({ status: 404, code: "profile_not_found", requestId: expect.stringMatching(/\S/) });
    expect(await client.profile("Not_A_Key", "x").catch((error: unknown) => error)).toMatchObject({
      status: 400,
      code: "invalid_scope_key",
    });
  });
});
