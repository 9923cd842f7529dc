/**
 * Parts of the current release and of a pinned release, and paging through them by Link; and the
 * refusals: malformed ids and part numbers (400), unknown releases and parts (404).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { contentDigestOf } from "../../src/common/catalog/digest";
import { api } from "./support/api";
import { manifestPart, partBytes, publish, testRelease } from "./support/releases";
import { expectProblem } from "./support/problems";

const release = testRelease("base");
const { manifest } = release;
const count = manifest.parts.length;
const hex = manifest.release_id.slice("sha256:".length);
const pinned = (n: number) => `/v1/releases/${manifest.release_id}/parts/${n}`;
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

beforeAll(async () => {
  await publish(release);
});

describe("GET /v1/releases/{release_id}/parts/{n}", () => {
  it("serves the part's bytes with its release, position, digest and the link to the next part", async () => {
    const res = await api(pinned(0));
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(release.parts[0]);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-length")).toBe(String(manifestPart(manifest, 0).length));
    expect(res.headers.get("catalog-release")).toBe(manifest.release_id);
    expect(res.headers.get("catalog-part")).toBe(`0/${count}`);
    expect(res.headers.get("content-digest")).toBe(contentDigestOf(manifestPart(manifest, 0).sha256));
    expect(res.headers.get("link")).toBe(`<${pinned(1)}>; rel="next"`);
    expect(res.headers.get("etag")).toBe(`"${manifest.release_id}/parts/0"`);
    expect(res.headers.get("cache-control")).toBe("private, max-age=31536000, immutable, no-transform");
  });

  it("Content-Digest is RFC 9530 sha-256 of exactly the bytes served", async () => {
    const res = await api(pinned(2));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await bytesOf(res)));
    expect(res.headers.get("content-digest")).toBe(`sha-256=:${btoa(String.fromCharCode(...digest))}:`);
  });

  it("the last part has no next link", async () => {
    const res = await api(pinned(count - 1));
    expect(res.headers.get("catalog-part")).toBe(`${count - 1}/${count}`);
    expect(res.headers.get("link")).toBeNull();
    expect(await bytesOf(res)).toEqual(release.parts[count - 1]);
  });

  it("accepts the release id without its sha256: prefix", async () => {
    const res = await api(`/v1/releases/${hex}/parts/1`);
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(release.parts[1]);
  });

  it("answers If-None-Match with 304 and a Range with 206", async () => {
    const etag = `"${manifest.release_id}/parts/1"`;
    expect((await api(pinned(1), { headers: { "If-None-Match": etag } })).status).toBe(304);
    const partial = await api(pinned(1), { headers: { Range: "bytes=5-14" } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get("content-range")).toBe(`bytes 5-14/${manifestPart(manifest, 1).length}`);
    expect(await bytesOf(partial)).toEqual(partBytes(release, 1).slice(5, 15));
  });

  it("following Link rel=next from part 0 reassembles the whole document", async () => {
    const chunks: Uint8Array[] = [];
    let next: string | null = pinned(0);
    while (next) {
      const res = await api(next);
      expect(res.status).toBe(200);
      chunks.push(await bytesOf(res));
      next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get("link") ?? "")?.[1] ?? null;
    }
    expect(chunks).toHaveLength(count);
    const whole = new Uint8Array(manifest.bytes);
    let offset = 0;
    for (const chunk of chunks) {
      whole.set(chunk, offset);
      offset += chunk.length;
    }
    expect(whole).toEqual(release.document);
  });
});

describe("GET /v1/catalog/parts/{n}", () => {
  it("serves part n of the current release and names its pinned URL", async () => {
    const res = await api("/v1/catalog/parts/3");
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(release.parts[3]);
    expect(res.headers.get("content-location")).toBe(pinned(3));
    expect(res.headers.get("link")).toBe(`<${pinned(4)}>; rel="next"`);
    expect(res.headers.get("catalog-part")).toBe(`3/${count}`);
    expect(res.headers.get("cache-control")).toBe("private, no-cache, no-transform");
  });

  it("HEAD reads no body and still says how long the part is", async () => {
    const res = await api("/v1/catalog/parts/0", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(manifestPart(manifest, 0).length));
    expect(await bytesOf(res)).toHaveLength(0);
  });
});

const unknownId = `sha256:${"e".repeat(64)}`;

describe("400: malformed path parameters", () => {
  it.each(["01", "-1", "x", "1e3", "0x1", "1.0", "9999999999"])("part number %s", async (n) => {
    for (const path of [`/v1/catalog/parts/${n}`, `/v1/releases/${manifest.release_id}/parts/${n}`]) {
      const problem = await expectProblem(await api(path), 400, "invalid_part_number");
      expect(problem.detail).toContain(JSON.stringify(n));
    }
  });

  it.each([
    `sha256:${"A".repeat(64)}`,
    `sha256:${"a".repeat(63)}`,
    `sha1:${"a".repeat(40)}`,
    "latest",
    `sha256:${"a".repeat(65)}`,
  ])("release id %s", async (id) => {
    for (const path of [`/v1/releases/${id}`, `/v1/releases/${id}/parts/0`]) {
      const problem = await expectProblem(await api(path), 400, "invalid_release_id");
      expect(problem.detail).toContain("64 lowercase hex");
    }
  });

  it("a very long id is not echoed at length", async () => {
    const problem = await expectProblem(await api(`/v1/releases/${"z".repeat(5000)}`), 400, "invalid_release_id");
    expect(problem.detail.length).toBeLessThan(300);
  });
});

describe("404: unknown releases and parts", () => {
  it.each([`/v1/releases/${unknownId}`, `/v1/releases/${unknownId}/parts/0`])(
    "%s → release_not_found",
    async (path) => {
      const problem = await expectProblem(await api(path), 404, "release_not_found");
      expect(problem.detail).toContain(unknownId);
    },
  );

  it.each([`/v1/catalog/parts/${count}`, `/v1/releases/${manifest.release_id}/parts/${count}`])(
    "%s → part_not_found naming the part range",
    async (path) => {
      const problem = await expectProblem(await api(path), 404, "part_not_found");
      expect(problem.detail).toContain(`has ${count} parts (0 to ${count - 1})`);
    },
  );
});
