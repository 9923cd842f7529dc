/**
 * The worker's part cache (src/worker/catalog/part-cache.ts): a whole part is read from R2 until
 * the cache holds it, then served from the cache byte for byte with the same headers; ranges still
 * read R2; and nothing reaches the cache before the guard and the manifest lookup have passed.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import app from "../../src/worker/index";
import { storageKeys } from "../../src/common/catalog/manifest";
import { bearer, sharedTestKey } from "./auth-fixtures";
import { API_ORIGIN } from "./support/api";
import { partBytes, publish, testRelease } from "./support/releases";
import { recordingBinding } from "./support/recording-binding";

const release = testRelease("base");
const { manifest } = release;
const hex = manifest.release_id.slice("sha256:".length);
const pinned = (n: number) => `/v1/releases/${manifest.release_id}/parts/${n}`;

/** The app with an R2 bucket that records its calls; waits for the background work (the cache fill). */
async function get(path: string, headers: Record<string, string> = {}) {
  const calls: string[] = [];
  const bucket = recordingBinding(env.RELEASES, (method, args) => calls.push(`${method} ${String(args[0])}`));
  const ctx = createExecutionContext();
  const request = new Request(new URL(path, API_ORIGIN), { headers: { ...bearer(await sharedTestKey()), ...headers } });
  const response = await app.fetch(request, { ...env, RELEASES: bucket } as Env, ctx);
  const bytes = new Uint8Array(await response.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { response, bytes, calls };
}

beforeAll(async () => {
  await publish(release);
});

describe("whole parts", () => {
  it("are served from the cache once it holds them: same bytes, same headers, no R2 read", async () => {
    const first = await get(pinned(1));
    expect(first.response.status).toBe(200);
    expect(first.bytes).toEqual(release.parts[1]);
    const again = await get(pinned(1));
    expect(again.calls).toEqual([]);
    expect(again.response.status).toBe(200);
    expect(again.bytes).toEqual(release.parts[1]);
    expect(Object.fromEntries(again.response.headers)).toEqual({
      ...Object.fromEntries(first.response.headers),
      "request-id": again.response.headers.get("request-id"),
    });
  });

  it("through the current-release URL too (the same immutable object)", async () => {
    await get(pinned(2));
    const current = await get("/v1/catalog/parts/2");
    expect(current.calls).toEqual([]);
    expect(current.bytes).toEqual(release.parts[2]);
    expect(current.response.headers.get("content-location")).toBe(pinned(2));
  });

  it("a miss reads R2 for the answer and once more to fill the cache", async () => {
    const { calls, bytes } = await get(pinned(0));
    expect(bytes).toEqual(release.parts[0]);
    // Another test file may have filled the cache already; a miss is exactly these two reads.
    if (calls.length) expect(calls).toEqual([`get ${storageKeys.part(hex, 0)}`, `get ${storageKeys.part(hex, 0)}`]);
  });
});

describe("what never uses the cache", () => {
  it("a Range reads the bytes it covers from R2", async () => {
    await get(pinned(1));
    const range = await get(pinned(1), { Range: "bytes=3-9" });
    expect(range.response.status).toBe(206);
    expect(range.bytes).toEqual(partBytes(release, 1).subarray(3, 10));
    expect(range.calls).toEqual([`get ${storageKeys.part(hex, 1)}`]);
  });

  it("a request without a valid key gets 401 and no bytes, though the part is cached", async () => {
    await get(pinned(1));
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request(new URL(pinned(1), API_ORIGIN)), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });
});
