/**
 * Headers of the catalog's answers. If-Match (RFC 9110 §13.1.1): strong comparison against the
 * ETag, else 412. Encoding: catalog bytes go out exactly as stored, whatever the client accepts:
 * every client sends Accept-Encoding: gzip, br, and a compressed body would make Content-Digest,
 * the strong ETag and Content-Range describe bytes the client never received (RFC 9530 §2, RFC 9110
 * §8.8.3, §14.4).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, headerOf } from "./support/api";
import { expectProblem } from "./support/problems";
import { partBytes, publish, testRelease } from "./support/releases";
import { contentDigestOf } from "../../src/common/catalog/digest";
import { sha256Hex } from "../../src/common/sha256";

const release = testRelease("base");
const { manifest, document } = release;
const documentTag = `"${manifest.release_id}"`;
const otherTag = `"sha256:${"0".repeat(64)}"`;

beforeAll(async () => {
  await publish(release);
});

describe("If-Match on GET /v1/catalog", () => {
  it.each([documentTag, `${otherTag}, ${documentTag}`, "*"])(
    "If-Match: %s holds → 200 with the document",
    async (header) => {
      const res = await api("/v1/catalog", { headers: { "If-Match": header } });
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(document);
    },
  );

  it.each([otherTag, `W/${documentTag}`, "not-an-entity-tag"])(
    "If-Match: %s fails → 412 precondition_failed",
    async (header) => {
      const res = await api("/v1/catalog", { headers: { "If-Match": header } });
      const problem = await expectProblem(res, 412, "precondition_failed");
      expect(problem.detail).toContain(documentTag);
    },
  );

  it("is evaluated before If-None-Match and Range (RFC 9110 §13.2.2)", async () => {
    await expectProblem(
      await api("/v1/catalog", { headers: { "If-Match": otherTag, "If-None-Match": documentTag } }),
      412,
      "precondition_failed",
    );
    await expectProblem(
      await api("/v1/catalog", { headers: { "If-Match": otherTag, Range: "bytes=0-9" } }),
      412,
      "precondition_failed",
    );
    const ranged = await api("/v1/catalog", { headers: { "If-Match": documentTag, Range: "bytes=0-9" } });
    expect(ranged.status).toBe(206);
  });

  it("HEAD fails the same way", async () => {
    const res = await api("/v1/catalog", { method: "HEAD", headers: { "If-Match": otherTag } });
    expect(res.status).toBe(412);
  });
});

describe("If-Match on parts and manifests", () => {
  it.each([
    ["/v1/catalog/parts/1", `"${manifest.release_id}/parts/1"`],
    [`/v1/releases/${manifest.release_id}/parts/0`, `"${manifest.release_id}/parts/0"`],
    ["/v1/releases/current", documentTag],
    [`/v1/releases/${manifest.release_id}`, documentTag],
  ])("%s: its own ETag holds, another release's fails with 412", async (path, tag) => {
    expect((await api(path, { headers: { "If-Match": tag } })).status).toBe(200);
    await expectProblem(await api(path, { headers: { "If-Match": otherTag } }), 412, "precondition_failed");
  });

  it("a missing release is still 404, not 412 (RFC 9110 §13.2.1)", async () => {
    await expectProblem(
      await api(`/v1/releases/${otherTag.slice(1, -1)}`, { headers: { "If-Match": otherTag } }),
      404,
      "release_not_found",
    );
  });
});

const pinned = `/v1/releases/${manifest.release_id}`;
const COMPRESSIBLE = { "Accept-Encoding": "gzip, br" };

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
    ["/v1/catalog/parts/1", partBytes(release, 1)],
    [`${pinned}/parts/0`, partBytes(release, 0)],
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
    const revalidated = await api(path, { headers: { ...COMPRESSIBLE, "If-None-Match": headerOf(res, "etag") } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("cache-control")).toBe(res.headers.get("cache-control"));
  });

  it("HEAD and 304 of the document say the same as its 200", async () => {
    const head = await api("/v1/catalog", { method: "HEAD", headers: COMPRESSIBLE });
    expectIdentityOnly(head);
    const notModified = await api("/v1/catalog", {
      headers: { ...COMPRESSIBLE, "If-None-Match": headerOf(head, "etag") },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("cache-control")).toBe(head.headers.get("cache-control"));
  });
});
