/**
 * Catalog bytes go out exactly as stored, whatever the client accepts: every client sends
 * Accept-Encoding: gzip, br, and a compressed body would make Content-Digest, the strong ETag and
 * Content-Range describe bytes the client never received (RFC 9530 §2, RFC 9110 §8.8.3, §14.4).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { contentDigestOf } from "../../src/common/catalog/digest";
import { sha256Hex } from "../../src/common/sha256";
import { api } from "./support/api";
import { publish, testRelease } from "./support/releases";

const release = testRelease("base");
const { manifest, document } = release;
const pinned = `/v1/releases/${manifest.release_id}`;
const COMPRESSIBLE = { "Accept-Encoding": "gzip, br" };

beforeAll(async () => {
  await publish(release);
});

/** The headers every catalog answer carries so that nothing between us and the client re-encodes it. */
function expectIdentityOnly(res: Response) {
  expect(res.headers.get("cache-control")).toMatch(/(^|,\s*)no-transform(,|$)/);
  // Named, not merely absent: wrangler dev's stand-in for the edge compresses an unnamed coding (identity-only.ts).
  expect(res.headers.get("content-encoding")).toBe("identity");
  // One representation per URL and credential: Vary names the credential, never the coding.
  expect(res.headers.get("vary")).toBe("Authorization");
}

describe("catalog responses are identity-only (no content coding)", () => {
  it.each([
    ["/v1/catalog", document],
    ["/v1/catalog/parts/1", release.parts[1]!],
    [`${pinned}/parts/0`, release.parts[0]!],
  ])("GET %s: the body is the stored bytes and hashes to its Content-Digest", async (path, bytes) => {
    const res = await api(path, { headers: COMPRESSIBLE });
    expect(res.status).toBe(200);
    expectIdentityOnly(res);
    const body = new Uint8Array(await res.arrayBuffer());
    expect(body).toEqual(bytes);
    expect(res.headers.get("content-digest")).toBe(contentDigestOf(await sha256Hex(body)));
  });

  it.each(["/v1/releases", "/v1/profiles?limit=1", "/v1/products?limit=1"])(
    "GET %s: a list made here says identity too",
    async (path) => {
      const res = await api(path, { headers: COMPRESSIBLE });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toMatch(/(^|,\s*)no-transform(,|$)/);
      expect(res.headers.get("content-encoding")).toBe("identity");
    },
  );

  it("a 206 carries identity byte positions of the stored bytes", async () => {
    const res = await api("/v1/catalog", { headers: { ...COMPRESSIBLE, Range: "bytes=100-199" } });
    expect(res.status).toBe(206);
    expectIdentityOnly(res);
    expect(res.headers.get("content-range")).toBe(`bytes 100-199/${manifest.bytes}`);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(document.slice(100, 200));
  });

  it.each(["/v1/releases/current", pinned])("the manifest at %s and its 304", async (path) => {
    const res = await api(path, { headers: COMPRESSIBLE });
    expect(res.status).toBe(200);
    expectIdentityOnly(res);
    const revalidated = await api(path, { headers: { ...COMPRESSIBLE, "If-None-Match": res.headers.get("etag")! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("cache-control")).toBe(res.headers.get("cache-control"));
  });

  it("HEAD and 304 of the document say the same as its 200", async () => {
    const head = await api("/v1/catalog", { method: "HEAD", headers: COMPRESSIBLE });
    expectIdentityOnly(head);
    const notModified = await api("/v1/catalog", {
      headers: { ...COMPRESSIBLE, "If-None-Match": head.headers.get("etag")! },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("cache-control")).toBe(head.headers.get("cache-control"));
  });
});
