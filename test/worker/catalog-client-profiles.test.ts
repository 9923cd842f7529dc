/**
 * The client package inside workerd against the real app (real KV and R2): the current release's
 * manifest, every profile of one pinned release streamed and verified part by part (parts of 7919
 * bytes end inside profiles and inside UTF-8 characters), a part altered in storage, cancellation.
 *
 * And its profile() against the real lookup routes: by scope and by id, current and pinned, the
 * bytes where Catalog-Document-Range says, a typed 404 and 400. The routes come with the profile
 * index; until the app serves them, those tests report as skipped, and they run by themselves once
 * /openapi.json lists /v1/profiles/…. (They passed against lookup ddecac7 merged into this branch.)
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CatalogApiError,
  CatalogVerificationError,
  createCatalogClient,
  type Profile,
  type Progress,
} from "../../packages/client/src/index.js";
import { canonicalJson } from "../../src/node/catalog/canonical";
import { documentPrefix } from "../../src/common/catalog/digest";
import { expectDefined } from "../../src/common/expect";
import { hexOf, storageKeys } from "../../src/common/catalog/manifest";
import { sharedTestKey } from "./auth-fixtures";
import app from "../../src/worker/index";
import { API_ORIGIN } from "./support/api";
import { manifestPart, partBytes, publish, testRelease, type TestRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const base = testRelease("base");
const smaller = testRelease("smaller");
const profilesOf = (release: TestRelease) =>
  (JSON.parse(new TextDecoder().decode(release.document)) as { data: Profile[] }).data;

/** The app, keeping each request's context so that its background work (part cache fills) ends with the test. */
const contexts: ExecutionContext[] = [];
const workerFetch = async (request: Request) => {
  const ctx = createExecutionContext();
  contexts.push(ctx);
  return app.fetch(request, env, ctx);
};

async function client(fetch = workerFetch) {
  return createCatalogClient({ baseUrl: API_ORIGIN, apiKey: await sharedTestKey(), fetch });
}

async function collect(
  profiles: AsyncIterable<Profile>,
  onEach: (profile: Profile) => void | Promise<void> = () => {},
) {
  const seen: Profile[] = [];
  try {
    for await (const profile of profiles) {
      seen.push(profile);
      await onEach(profile);
    }
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error };
  }
}

/** How many profiles end before `offset` in the document (the data is JCS: `[p0,p1,…]`). */
function profilesEndingBefore(release: TestRelease, offset: number): number {
  const { manifest } = release;
  let end =
    new TextEncoder().encode(documentPrefix(manifest.api_contract, manifest.release_id, manifest.artifact_sha256))
      .length + 1;
  let count = 0;
  for (const profile of profilesOf(release)) {
    end += new TextEncoder().encode(canonicalJson(profile)).length;
    if (end > offset) break;
    count++;
    end += 1;
  }
  return count;
}

beforeEach(() => resetStorage());
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => waitOnExecutionContext(ctx)));
});

describe("the client package in a Worker", () => {
  it("currentRelease() is the published manifest", async () => {
    await publish(base);
    expect(await (await client()).currentRelease()).toEqual({ ...base.manifest, published_at: expect.any(String) });
  });

  it("profiles() yields every profile of the release, in order, and reports progress part by part", async () => {
    await publish(base);
    expect(base.manifest.parts.length).toBeGreaterThan(3);
    const progress: Progress[] = [];
    const { seen, error } = await collect((await client()).profiles({ onProgress: (event) => progress.push(event) }));
    expect(error).toBeUndefined();
    expect(seen).toEqual(profilesOf(base));
    const { bytes, parts } = base.manifest;
    expect(progress.at(-1)).toEqual({
      phase: "verified",
      bytesDone: bytes,
      bytesTotal: bytes,
      partsDone: parts.length,
      partsTotal: parts.length,
      partsReused: 0,
    });
    expect(progress.map((event) => event.partsDone)).toEqual(
      [...progress.map((event) => event.partsDone)].sort((a, b) => a - b),
    );
  });

  it("stays on the release it started with when another one is published meanwhile", async () => {
    await publish(base);
    const catalog = await client();
    const { seen, error } = await collect(catalog.profiles(), async () => {
      if ((await catalog.currentRelease()).release_id === base.manifest.release_id) await publish(smaller);
    });
    expect(error).toBeUndefined();
    expect(seen).toEqual(profilesOf(base));
    expect((await catalog.currentRelease()).release_id).toBe(smaller.manifest.release_id);
  });

  it("profiles({ release }) reads a kept release that is no longer current", async () => {
    await publish(base);
    await publish(smaller);
    const { seen } = await collect((await client()).profiles({ release: hexOf(base.manifest.release_id) }));
    expect(seen).toEqual(profilesOf(base));
  });

  it("a part altered in storage fails verification before any profile that ends in it is yielded", async () => {
    await publish(base);
    const altered = new Uint8Array(partBytes(base, 2));
    altered.set([expectDefined(altered[100], "byte 100 of part 2") ^ 0x01], 100);
    const key = storageKeys.part(hexOf(base.manifest.release_id), 2);
    await env.RELEASES.put(key, altered);
    // The worker's part cache (src/worker/catalog/part-cache.ts) may hold the original bytes.
    await caches.default.delete(new Request(`https://catalog-parts.internal/${key}`));
    const { seen, error } = await collect((await client()).profiles());
    expect(error).toBeInstanceOf(CatalogVerificationError);
    expect(String(error)).toContain("part 2 does not match");
    expect(seen).toEqual(profilesOf(base).slice(0, profilesEndingBefore(base, manifestPart(base.manifest, 2).offset)));
  });

  it("an abort stops the stream at once with an AbortError, and fetches nothing more", async () => {
    await publish(base);
    const requests: string[] = [];
    const controller = new AbortController();
    const catalog = await client((request) => {
      requests.push(new URL(request.url).pathname);
      return workerFetch(request);
    });
    const { seen, error } = await collect(catalog.profiles({ signal: controller.signal }), () => controller.abort());
    expect((error as DOMException).name).toBe("AbortError");
    expect(seen).toHaveLength(1);
    expect(requests).toEqual([`/v1/releases/current`, ...requests.slice(1)]);
    expect(requests.length).toBeLessThan(1 + base.manifest.parts.length);
  });

  it("an unknown release is a CatalogApiError with the problem's code and request id", async () => {
    await publish(base);
    const { error } = await collect((await client()).profiles({ release: `sha256:${"e".repeat(64)}` }));
    expect(error).toBeInstanceOf(CatalogApiError);
    expect(error).toMatchObject({ status: 404, code: "release_not_found", requestId: expect.stringMatching(/\S/) });
  });
});

const profiles = (JSON.parse(new TextDecoder().decode(base.document)) as { data: Profile[] }).data;

const openapi = (await (await workerFetch(new Request(`${API_ORIGIN}/openapi.json`))).json()) as {
  paths: Record<string, unknown>;
};
const lookupRoutes = Object.keys(openapi.paths).some((route) => route.startsWith("/v1/profiles/"));

describe.runIf(lookupRoutes)("profile() against the real lookup routes", () => {
  it("finds a profile by scope and by id, current and pinned, with its release and document range", async () => {
    await publish(base);
    const client = createCatalogClient({ baseUrl: API_ORIGIN, apiKey: await sharedTestKey(), fetch: workerFetch });
    for (const at of [0, 7, -1]) {
      const expected = expectDefined(profiles.at(at), `profile ${at} of the base release`);
      const byScope = await client.profile(expected.scope.product.key, expected.scope.funnel.key);
      expect(byScope.profile).toEqual(expected);
      expect(byScope.releaseId).toBe(base.manifest.release_id);
      const { first, last } = expectDefined(byScope.documentRange, "the found profile's range in the document");
      expect(JSON.parse(new TextDecoder().decode(base.document.subarray(first, last + 1)))).toEqual(expected);
      expect(
        (await client.profile(expected.agent_readiness_profile_id, { release: base.manifest.release_id })).profile,
      ).toEqual(expected);
    }
    await publish(smaller);
    const last = expectDefined(profiles.at(-1), "the last profile of the base release");
    const pinned = await client.profile(last.agent_readiness_profile_id, {
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
