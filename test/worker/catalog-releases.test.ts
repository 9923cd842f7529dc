/** GET /v1/releases/current and /v1/releases/{release_id}: manifests. */
import { beforeAll, describe, expect, it } from "vitest";
import { Manifest } from "../../src/common/catalog/manifest";
import { api } from "./support/api";
import { publish, testRelease } from "./support/releases";

const release = testRelease("base");
const { manifest } = release;
let publishedAt = "";

beforeAll(async () => {
  publishedAt = (await publish(release)).published_at;
});

describe("release manifests", () => {
  it("GET /v1/releases/current is the current release's manifest, with published_at set", async () => {
    const res = await api("/v1/releases/current");
    expect(res.status).toBe(200);
    const body = Manifest.parse(await res.json());
    expect(body).toEqual({ ...manifest, published_at: publishedAt });
    expect(res.headers.get("catalog-release")).toBe(manifest.release_id);
    expect(res.headers.get("etag")).toBe(`"${manifest.release_id}"`);
    expect(res.headers.get("content-location")).toBe(`/v1/releases/${manifest.release_id}`);
    expect(res.headers.get("cache-control")).toBe("private, no-cache, no-transform");
  });

  it("GET /v1/releases/{id} (with or without sha256:) is the same manifest, immutable", async () => {
    for (const id of [manifest.release_id, manifest.release_id.slice(7)]) {
      const res = await api(`/v1/releases/${id}`);
      expect(res.status).toBe(200);
      expect(Manifest.parse(await res.json()).release_id).toBe(manifest.release_id);
      expect(res.headers.get("cache-control")).toBe("private, max-age=31536000, immutable, no-transform");
    }
  });

  it("If-None-Match with the release id → 304", async () => {
    const res = await api("/v1/releases/current", { headers: { "If-None-Match": `"${manifest.release_id}"` } });
    expect(res.status).toBe(304);
    expect(res.headers.get("catalog-release")).toBe(manifest.release_id);
  });

  it("/openapi.json describes every catalog route", async () => {
    const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
    for (const path of [
      "/v1/catalog",
      "/v1/catalog/parts/{n}",
      "/v1/releases/current",
      "/v1/releases/{release_id}",
      "/v1/releases/{release_id}/parts/{n}",
    ]) {
      expect(doc.paths[path]?.get, path).toBeDefined();
    }
  });
});
