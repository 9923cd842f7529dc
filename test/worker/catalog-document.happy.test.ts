/** GET/HEAD /v1/catalog: the whole document, conditional requests and byte ranges. */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { contentDigestOf } from "../../src/common/catalog/digest";
import { expectDefined } from "../../src/common/expect";
import { api, apiWithBindings } from "./support/api";
import { manifestPart, publish, testRelease } from "./support/releases";
import { recordingBinding } from "./support/recording-binding";

const release = testRelease("base");
const { manifest, document } = release;
const etag = `"${manifest.release_id}"`;
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

beforeAll(async () => {
  await publish(release);
});

describe("GET /v1/catalog", () => {
  it("streams the whole document: exactly the parts reassembled, with its length, validators and digest", async () => {
    const res = await api("/v1/catalog");
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(document);
    expect(res.headers.get("content-length")).toBe(String(manifest.bytes));
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("etag")).toBe(etag);
    expect(res.headers.get("catalog-release")).toBe(manifest.release_id);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-digest")).toBe(contentDigestOf(manifest.sha256));
    expect(res.headers.get("cache-control")).toContain("private");
  });

  it("is the document the spec describes: the envelope with every profile", async () => {
    const body = (await (await api("/v1/catalog")).json()) as {
      release_id: string;
      artifact_sha256: string;
      data: unknown[];
    };
    expect(body.release_id).toBe(manifest.release_id);
    expect(body.artifact_sha256).toBe(manifest.artifact_sha256);
    expect(body.data).toHaveLength(manifest.profile_count);
  });

  it("answers HEAD with the same headers and no body", async () => {
    const res = await api("/v1/catalog", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(manifest.bytes));
    expect(res.headers.get("etag")).toBe(etag);
    expect(await bytesOf(res)).toHaveLength(0);
  });
});

describe("conditional requests (RFC 9110 §13)", () => {
  it.each([etag, `"other", ${etag}`, `W/${etag}`, "*"])(
    "If-None-Match: %s → 304 with the validators",
    async (header) => {
      const res = await api("/v1/catalog", { headers: { "If-None-Match": header } });
      expect(res.status).toBe(304);
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("catalog-release")).toBe(manifest.release_id);
      expect(await bytesOf(res)).toHaveLength(0);
    },
  );

  it("If-None-Match naming another release → 200 with the document", async () => {
    const res = await api("/v1/catalog", { headers: { "If-None-Match": `"sha256:${"0".repeat(64)}"` } });
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(document);
  });
});

describe("byte ranges (RFC 9110 §14)", () => {
  const size = manifest.bytes;
  const boundary = manifestPart(manifest, 1).offset;
  const part3Start = manifestPart(manifest, 3).offset;
  const cases: [string, number, number][] = [
    ["bytes=0-0", 0, 0],
    ["bytes=0-99", 0, 99],
    [`bytes=${boundary - 10}-${boundary + 9}`, boundary - 10, boundary + 9], // spans parts 0 and 1
    [`bytes=${boundary}-${boundary + manifest.part_bytes - 1}`, boundary, boundary + manifest.part_bytes - 1], // exactly part 1
    [`bytes=100-${part3Start + 5}`, 100, part3Start + 5], // spans four parts
    [`bytes=${size - 50}-`, size - 50, size - 1],
    ["bytes=-120", size - 120, size - 1],
    [`bytes=${size - 1}-${size + 1000}`, size - 1, size - 1], // last position clamped to the size
    [`bytes=-${size + 5}`, 0, size - 1], // a suffix longer than the document selects all of it
  ];
  it.each(cases)("%s → 206 with exactly those bytes", async (range, start, end) => {
    const res = await api("/v1/catalog", { headers: { Range: range } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes ${start}-${end}/${size}`);
    expect(res.headers.get("content-length")).toBe(String(end - start + 1));
    expect(res.headers.get("content-digest")).toBeNull();
    expect(await bytesOf(res)).toEqual(document.slice(start, end + 1));
  });

  it("honours a Range while If-Range still names the release", async () => {
    const res = await api("/v1/catalog", { headers: { Range: "bytes=10-19", "If-Range": etag } });
    expect(res.status).toBe(206);
    expect(await bytesOf(res)).toEqual(document.slice(10, 20));
  });

  it("sends the whole document when If-Range names another release (the resumed download restarts)", async () => {
    const res = await api("/v1/catalog", {
      headers: { Range: "bytes=10-19", "If-Range": `"sha256:${"1".repeat(64)}"` },
    });
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(document);
  });

  it.each([
    ["several ranges", { Range: "bytes=0-9,20-29" }],
    ["several ranges, one past the end", { Range: `bytes=0-9,${size + 5}-` }],
    ["an empty If-Range", { Range: "bytes=10-19", "If-Range": "" }],
    ["a weak If-Range", { Range: "bytes=10-19", "If-Range": `W/${etag}` }],
    ["an If-Range date", { Range: "bytes=10-19", "If-Range": "Wed, 21 Oct 2015 07:28:00 GMT" }],
  ])("ignores the Range for %s: 200 with the whole document (RFC 9110 §14.2, §13.1.5)", async (_, headers) => {
    const res = await apiWithBindings(env, "/v1/catalog", { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-range")).toBeNull();
    expect(await bytesOf(res)).toEqual(document);
  });

  it("ignores a Range on HEAD and a Range in a unit other than bytes", async () => {
    const head = await api("/v1/catalog", { method: "HEAD", headers: { Range: "bytes=0-9" } });
    expect(head.status).toBe(200);
    const items = await api("/v1/catalog", { headers: { Range: "items=0-9" } });
    expect(items.status).toBe(200);
    expect(await bytesOf(items)).toEqual(document);
  });
});

describe("what each answer reads from R2", () => {
  /** The worker's bindings with an R2 bucket that records every call made to it. */
  function recordingR2() {
    const calls: string[] = [];
    const bucket = recordingBinding(env.RELEASES, (method, args) => calls.push(`${method} ${String(args[0])}`));
    return { calls, bindings: { ...env, RELEASES: bucket } as Env };
  }

  it("HEAD and a 304 read nothing from R2", async () => {
    const { calls, bindings } = recordingR2();
    expect((await apiWithBindings(bindings, "/v1/catalog", { method: "HEAD" })).status).toBe(200);
    expect((await apiWithBindings(bindings, "/v1/catalog/parts/1", { method: "HEAD" })).status).toBe(200);
    expect((await apiWithBindings(bindings, "/v1/catalog", { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect(calls).toEqual([]);
  });

  it("a GET reads each part once, in order; a Range reads only the parts it covers", async () => {
    const { calls, bindings } = recordingR2();
    const hex = manifest.release_id.slice(7);
    expect(await bytesOf(await apiWithBindings(bindings, "/v1/catalog"))).toEqual(document);
    expect(calls).toEqual(manifest.parts.map((part) => `get releases/${hex}/parts/${part.index}`));
    calls.length = 0;
    const start = manifestPart(manifest, 2).offset + 5;
    await bytesOf(
      await apiWithBindings(bindings, "/v1/catalog", { headers: { Range: `bytes=${start}-${start + 10}` } }),
    );
    expect(calls).toEqual([`get releases/${hex}/parts/2`]);
  });
});

describe("a client that stops reading (issue 24, item 11)", () => {
  interface Logged {
    debug: string[];
    error: string[];
  }

  /** The stream is fed in waitUntil, after the response: waits (on real timers) until `done`. */
  async function until(done: () => boolean) {
    for (let waited = 0; !done() && waited < 3000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** Collects the worker's console lines at each level while `run` goes. */
  async function logsDuring(run: (lines: Logged) => Promise<void>) {
    const lines: Logged = { debug: [], error: [] };
    const debug = vi.spyOn(console, "debug").mockImplementation((line: unknown) => void lines.debug.push(String(line)));
    const error = vi.spyOn(console, "error").mockImplementation((line: unknown) => void lines.error.push(String(line)));
    try {
      await run(lines);
    } finally {
      debug.mockRestore();
      error.mockRestore();
    }
    return lines;
  }

  it("is logged at debug with the bytes sent, not as an error", async () => {
    const lines = await logsDuring(async (lines) => {
      const res = await api("/v1/catalog");
      const reader = expectDefined(res.body, "the document's body").getReader();
      await reader.read();
      await reader.cancel();
      await until(() => lines.debug.length > 0);
    });
    expect(lines.error).toEqual([]);
    const line = JSON.parse(expectDefined(lines.debug[0], "a debug line"));
    expect(line).toMatchObject({
      level: "debug",
      message: "catalog stream closed by the client",
      bytes: manifest.bytes,
    });
    expect(line.bytes_sent).toBeGreaterThanOrEqual(0);
    expect(line.bytes_sent).toBeLessThan(manifest.bytes);
  });

  it("a part missing from storage mid-stream is still an error", async () => {
    const missing = `releases/${manifest.release_id.slice(7)}/parts/2`;
    const bucket = recordingBinding(env.RELEASES, () => {});
    const withHole = new Proxy(bucket, {
      get: (target, name) =>
        name === "get"
          ? (key: string, options: R2GetOptions) => (key === missing ? Promise.resolve(null) : target.get(key, options))
          : Reflect.get(target, name),
    });
    const lines = await logsDuring(async (lines) => {
      const res = await apiWithBindings({ ...env, RELEASES: withHole } as Env, "/v1/catalog");
      await res.arrayBuffer().catch(() => {});
      await until(() => lines.error.length > 0);
    });
    expect(JSON.parse(expectDefined(lines.error[0], "an error line"))).toMatchObject({
      level: "error",
      bytes_sent: manifestPart(manifest, 2).offset,
    });
    expect(lines.debug).toEqual([]);
  });
});
