/**
 * One profile by scope or by id, current and pinned: exactly its bytes in the document, with the
 * headers that let a client check them against the document; conditional and HEAD requests; and
 * an older release still answering lookups after a new publish.
 *
 * Profile lookups that cannot be answered: malformed keys and ids (400), unknown profiles and
 * releases (404, naming the release looked in), no credential or scope (401/403), nothing
 * published (503); and the routes in /openapi.json.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api";
import { type DocumentProfile, documentProfiles } from "./support/document-profiles";
import { publish, testRelease } from "./support/releases";
import { accountWithKey, bearer, call } from "./auth-fixtures";
import { expectProblem } from "./support/problems";
import { resetStorage } from "./support/reset-storage";

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
  const [, first, last, size] = /^bytes (\d+)-(\d+)\/(\d+)$/
    .exec(res.headers.get("catalog-document-range") ?? "")!
    .map(Number);
  expect([first, last, size]).toEqual([profile.offset, profile.offset + body.length - 1, manifest.bytes]);
  expect(release.document.slice(first, last! + 1)).toEqual(body);
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
    const profile = profiles[3]!;
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
    const profile = documentProfiles(older)[0]!;
    const res = await api(byId(profile, older.manifest.release_id));
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(profile.bytes);
    expect(res.headers.get("catalog-release")).toBe(older.manifest.release_id);
    expect(res.headers.get("catalog-document-range")).toBe(
      `bytes ${profile.offset}-${profile.offset + profile.bytes.length - 1}/${older.manifest.bytes}`,
    );
    // The newer release added a profile: the older one does not have it, the current one does.
    const added = profiles.find((p) => !documentProfiles(older).some((q) => q.id === p.id))!;
    expect((await api(byId(added, older.manifest.release_id))).status).toBe(404);
    expect((await api(byId(added))).status).toBe(200);
  });
});

describe("conditional, HEAD and range requests", () => {
  const profile = profiles[5]!;

  it("If-None-Match with the ETag → 304 with the validators, no body", async () => {
    const etag = (await api(byScope(profile))).headers.get("etag")!;
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

const { release_id } = release.manifest;
const profile = documentProfiles(release)[0]!;
const unknownId = "arp_zzzzzzzzzzzzzzzzzzzzzzzzzz";

describe("nothing published yet", () => {
  it("503 catalog_unavailable with Retry-After", async () => {
    await resetStorage();
    const res = await api(`/v1/profiles/${profile.productKey}/${profile.funnelKey}`);
    await expectProblem(res, 503, "catalog_unavailable");
    expect(res.headers.get("retry-after")).toBe("30");
  });
});

describe("with a release", () => {
  it("404 profile_not_found names the release it looked in, current and pinned, by scope and by id", async () => {
    await publish(release);
    const misses = [
      [
        `/v1/profiles/${profile.productKey}/no-such-funnel`,
        `for product "${profile.productKey}" and funnel "no-such-funnel"`,
      ],
      [`/v1/profiles/${unknownId}`, `with id ${unknownId}`],
      [`/v1/releases/${release_id}/profiles/zzz-after-every-product/x`, 'for product "zzz-after-every-product"'],
      [`/v1/releases/${release_id}/profiles/0-before-every-product/x`, 'for product "0-before-every-product"'],
      [`/v1/releases/${release_id}/profiles/arp_00000000000000000000000000`, "with id arp_00000000000000000000000000"],
    ];
    for (const [path, what] of misses) {
      const res = await api(path!);
      const problem = (await expectProblem(res, 404, "profile_not_found")) as { detail: string; release_id?: string };
      expect(problem.detail).toContain(`Release ${release_id} has no profile ${what}`);
      expect(problem.release_id).toBe(release_id);
      expect(res.headers.get("catalog-release")).toBe(release_id);
    }
  });

  it("every URL a profile_not_found detail points to answers 200", async () => {
    await publish(release);
    const misses = [
      `/v1/profiles/${profile.productKey}/no-such-funnel`,
      "/v1/profiles/no-such-product/checkout",
      `/v1/releases/${release_id}/profiles/no-such-product/x`,
      `/v1/releases/${release_id}/products/no-such-product/profiles`,
    ];
    for (const path of misses) {
      const problem = (await expectProblem(await api(path), 404, "profile_not_found")) as { detail: string };
      const pointed = [...problem.detail.matchAll(/GET (\/\S+?)[.;,]?(?:\s|$)/g)].map((match) => match[1]!);
      expect(pointed.length, problem.detail).toBeGreaterThan(0);
      for (const url of pointed) expect((await api(url)).status, `${path} → ${url}`).toBe(200);
    }
  });

  it.each([
    ["/v1/profiles/Northwind/checkout", "invalid_scope_key", 'product_key "Northwind"'],
    ["/v1/profiles/northwind-payments-api/check_out", "invalid_scope_key", 'funnel_key "check_out"'],
    ["/v1/profiles/northwind-payments-api/-checkout", "invalid_scope_key", 'funnel_key "-checkout"'],
    ["/v1/profiles/arp_short", "invalid_profile_id", '"arp_short" is not a profile id'],
    ["/v1/profiles/northwind-payments-api", "invalid_profile_id", "/v1/profiles/{product_key}/{funnel_key}"],
    [`/v1/profiles/${"a".repeat(5000)}`, "invalid_profile_id", "…"],
    ["/v1/releases/latest/profiles/a/b", "invalid_release_id", "64 lowercase hex"],
    [`/v1/releases/${release_id}/profiles/ARP_x`, "invalid_profile_id", "arp_ followed by 26"],
  ])("%s → 400 %s", async (path, code, detail) => {
    const problem = await expectProblem(await api(path), 400, code);
    expect(problem.detail).toContain(detail);
    expect(problem.detail.length).toBeLessThan(300);
  });

  it("404 release_not_found for a release that was never published here", async () => {
    const unknown = `sha256:${"e".repeat(64)}`;
    const problem = await expectProblem(
      await api(`/v1/releases/${unknown}/profiles/${profile.id}`),
      404,
      "release_not_found",
    );
    expect(problem.detail).toContain(unknown);
  });

  it("401 without a credential, 403 without read:catalog", async () => {
    const path = `/v1/profiles/${profile.id}`;
    await expectProblem(await call(path), 401, "unauthenticated");
    const { secret } = await accountWithKey({ scopes: ["read:cheeses"] });
    const res = await api(path, { headers: bearer(secret) });
    await expectProblem(res, 403, "insufficient_scope");
    expect(res.headers.get("www-authenticate")).toContain('scope="read:catalog"');
  });

  it("/openapi.json describes the lookups with their parameters, headers and problems", async () => {
    const doc = (await (await api("/openapi.json")).json()) as {
      paths: Record<
        string,
        { get?: { responses: Record<string, { headers?: object }>; parameters: { name: string }[] } }
      >;
    };
    for (const path of [
      "/v1/profiles/{product_key}/{funnel_key}",
      "/v1/profiles/{agent_readiness_profile_id}",
      "/v1/releases/{release_id}/profiles/{product_key}/{funnel_key}",
      "/v1/releases/{release_id}/profiles/{agent_readiness_profile_id}",
    ]) {
      const get = doc.paths[path]?.get;
      expect(Object.keys(get?.responses ?? {}), path).toEqual(
        expect.arrayContaining(["200", "304", "400", "401", "403", "404", "429"]),
      );
      expect(Object.keys(get!.responses["200"]!.headers!)).toEqual(
        expect.arrayContaining(["Catalog-Release", "ETag", "Content-Digest", "Catalog-Document-Range"]),
      );
    }
  });
});
