/**
 * Whole parts kept in the worker's own Cache API (docs/storage.md "Catalog releases": the worker may
 * keep immutable parts in its own Cache API after the auth check). A part's R2 key names its
 * release, and a release id is the digest of its content, so a cached part can never be stale.
 *
 * Only whole-part 200 answers come here, after authentication, the rate limiter and the manifest
 * lookup have run: a request that may not see the part never reaches the cache, and a release no
 * longer in the manifest store is refused before it. On a miss the part streams from R2 exactly as
 * without a cache, and a second read fills the cache in the background, so the answer's stream is
 * never held back by the cache's (no tee, nothing buffered). Where the Cache API does nothing (a
 * workers.dev host), every request is a miss and costs what it did before, plus that fill.
 */
import { MissingObject } from "./slice-stream";
import { retryTransient } from "../../common/transient";

/** Keys live under a reserved name (RFC 6761 style `.internal`), so no client URL is ever one. */
const CACHE_ORIGIN = "https://catalog-parts.internal/";
const CACHED_PART_HEADERS = {
  "Cache-Control": "public, max-age=31536000, immutable",
  "Content-Type": "application/octet-stream",
};

export async function wholePartBody(
  bucket: R2Bucket,
  key: string,
  ctx: { waitUntil(promise: Promise<unknown>): void },
): Promise<ReadableStream> {
  const cacheKey = new Request(`${CACHE_ORIGIN}${key}`);
  const cached = await caches.default.match(cacheKey);
  if (cached?.body) return cached.body;
  const object = await retryTransient(() => bucket.get(key));
  if (!object) throw new MissingObject(`R2 object ${key} is missing`);
  ctx.waitUntil(fill(bucket, key, cacheKey));
  return object.body;
}

async function fill(bucket: R2Bucket, key: string, cacheKey: Request): Promise<void> {
  try {
    const object = await bucket.get(key);
    if (!object) return;
    const headers = { ...CACHED_PART_HEADERS, "Content-Length": String(object.size) };
    await caches.default.put(cacheKey, new Response(object.body, { headers }));
  } catch (error) {
    // A cache that cannot be filled only costs the next request an R2 read.
    console.error(JSON.stringify({ level: "warn", message: `part cache fill for ${key} failed: ${String(error)}` }));
  }
}
