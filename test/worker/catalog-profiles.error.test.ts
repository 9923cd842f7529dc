/**
 * Profile lookups that cannot be answered: malformed keys and ids (400), unknown profiles and
 * releases (404, naming the release looked in), no credential or scope (401/403), nothing
 * published (503); and the routes in /openapi.json.
 */
import { describe, expect, it } from "vitest";
import { accountWithKey, bearer, call } from "./auth-fixtures";
import { api } from "./support/api";
import { expectDefined } from "../../src/common/expect";
import { documentProfile } from "./support/document-profiles";
import { expectProblem } from "./support/problems";
import { publish, testRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const release = testRelease("base");
const { release_id } = release.manifest;
const profile = documentProfile(release, 0);
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
    const misses: [path: string, what: string][] = [
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
      const res = await api(path);
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
      const pointed = [...problem.detail.matchAll(/GET (\/\S+?)[.;,]?(?:\s|$)/g)].map(([, url]) =>
        expectDefined(url, "a URL after GET"),
      );
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
      expect(Object.keys(get?.responses["200"]?.headers ?? {}), path).toEqual(
        expect.arrayContaining(["Catalog-Release", "ETag", "Content-Digest", "Catalog-Document-Range"]),
      );
    }
  });
});
