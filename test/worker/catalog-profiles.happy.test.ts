/**
 * One profile by scope or by id, current and pinned: exactly its bytes in the document, with the
 * headers that let a client check them against the document; conditional and HEAD requests; and
 * an older release still answering lookups after a new publish.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { api, headerOf } from "./support/api";
import { documentProfile, documentProfiles, type DocumentProfile } from "./support/document-profiles";
import { publish, testRelease } from "./support/releases";

const older = testRelease("smaller");
const release = testRelease("base");
const { manifest } = release;
const profiles = documentProfiles(release);
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const base64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

const byScope = (p: DocumentProfile, releaseId?: string) =>
  `${releaseId ? `/v1/releases/${releaseId}` : "/v1"}/profiles/${p.productKey}/${p.funnelKey}`;
const byId = (p: DocumentProfile, releaseId?: string) =>
  `${releaseId ? `/v1/releases/${releaseId}` : "/v1"}/profiles/${p.id}`;
const partOf = (offset: number) => Math.floor(offset / manifest.part_bytes);

beforeAll(async () => {
  await publish(older);
  await publish(release);
});

/** Everything a client can check from one answer: the bytes, where they are in the document, their digest. */
async function expectProfile(res: Response, profile: DocumentProfile) {
  expect(res.status).toBe(200);
  const body = await bytesOf(res);
  expect(body).toEqual(profile.bytes);
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get("catalog-document-range") ?? "");
  const [, first = NaN, last = NaN, size] = expectDefined(range, "a Catalog-Document-Range header").map(Number);
  expect([first, last, size]).toEqual([profile.offset, profile.offset + body.length - 1, manifest.bytes]);
  expect(release.document.slice(first, last + 1)).toEqual(body);
  const digest = await crypto.subtle.digest("SHA-256", body);
  expect(res.headers.get("content-digest")).toBe(`sha-256=:${base64(digest)}:`);
  expect(res.headers.get("etag")).toBe(`"sha256:${hex(digest)}"`);
  expect(res.headers.get("content-type")).toBe("application/json");
  expect(res.headers.get("content-length")).toBe(String(body.length));
  expect(res.headers.get("catalog-release")).toBe(manifest.release_id);
}

describe("GET /v1/profiles/{product_key}/{funnel_key} and /v1/profiles/{id}", () => {
  it("serves every profile by scope, with the pinned URL in Content-Location", async () => {
    for (const profile of profiles) {
      const res = await api(byScope(profile));
      await expectProfile(res, profile);
      expect(res.headers.get("cache-control")).toBe("private, no-cache, no-transform");
      expect(res.headers.get("content-location")).toBe(byScope(profile, manifest.release_id));
    }
  });

  it("serves every profile by id", async () => {
    for (const profile of profiles) {
      const res = await api(byId(profile));
      await expectProfile(res, profile);
      expect(res.headers.get("content-location")).toBe(byId(profile, manifest.release_id));
    }
  });

  it("serves a profile that spans two parts", async () => {
    const spanning = profiles.filter((p) => partOf(p.offset) !== partOf(p.offset + p.bytes.length - 1));
    expect(spanning.length).toBeGreaterThan(0);
    for (const profile of spanning) await expectProfile(await api(byScope(profile)), profile);
  });
});

describe("pinned: /v1/releases/{release_id}/profiles/…", () => {
  it("serves the profile of that release, cacheable for a year, with or without the sha256: prefix", async () => {
    const profile = documentProfile(release, 3);
    for (const path of [
      byScope(profile, manifest.release_id),
      byId(profile, manifest.release_id),
      byId(profile, manifest.release_id.slice(7)),
    ]) {
      const res = await api(path);
      await expectProfile(res, profile);
      expect(res.headers.get("cache-control")).toBe("private, max-age=31536000, immutable, no-transform");
      expect(res.headers.get("content-location")).toBeNull();
    }
  });

  it("an older release still answers lookups after a newer one was published, from its own document", async () => {
    const profile = documentProfile(older, 0);
    const res = await api(byId(profile, older.manifest.release_id));
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(profile.bytes);
    expect(res.headers.get("catalog-release")).toBe(older.manifest.release_id);
    expect(res.headers.get("catalog-document-range")).toBe(
      `bytes ${profile.offset}-${profile.offset + profile.bytes.length - 1}/${older.manifest.bytes}`,
    );
    // The newer release added a profile: the older one does not have it, the current one does.
    const added = expectDefined(
      profiles.find((p) => !documentProfiles(older).some((q) => q.id === p.id)),
      "a profile the older release lacks",
    );
    expect((await api(byId(added, older.manifest.release_id))).status).toBe(404);
    expect((await api(byId(added))).status).toBe(200);
  });
});

describe("conditional, HEAD and range requests", () => {
  const profile = documentProfile(release, 5);

  it("If-None-Match with the ETag → 304 with the validators, no body", async () => {
    const etag = headerOf(await api(byScope(profile)), "etag");
    const res = await api(byScope(profile), { headers: { "If-None-Match": etag } });
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe(etag);
    expect(res.headers.get("catalog-release")).toBe(manifest.release_id);
    expect(await res.text()).toBe("");
  });

  it("HEAD answers the headers of GET without a body", async () => {
    const res = await api(byId(profile), { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(profile.bytes.length));
    expect(res.headers.get("catalog-document-range")).toMatch(/^bytes \d+-\d+\/\d+$/);
    expect(await res.text()).toBe("");
  });

  it("one Range → 206 with those bytes of the profile", async () => {
    const res = await api(byScope(profile), { headers: { Range: "bytes=10-19" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 10-19/${profile.bytes.length}`);
    expect(await bytesOf(res)).toEqual(profile.bytes.slice(10, 20));
  });
});
