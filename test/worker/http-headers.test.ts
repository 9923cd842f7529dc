/**
 * What caches, proxies and browsers in front of the worker rely on (issue 24, items 6, 7, 8 and 10):
 * Cache-Control on every answer; Vary: Authorization on every answer of the bearer API; either
 * identity coding (no-transform) or Vary: Accept-Encoding; CORS without credentials on /v1 and /v2.
 * The Chromium side of CORS: test/e2e/catalog.test.ts.
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import app from "../../src/worker/index";
import { CORS_EXPOSED_HEADERS } from "../../src/worker/http/cors";
import { sharedTestKey } from "./auth-fixtures";
import { headerOf } from "./support/api";
import { routePaths } from "./support/malformed-requests";
import { publish, testRelease } from "./support/releases";

const ORIGIN = "https://api.test";
const release = testRelease("base");
const productKey = JSON.parse(new TextDecoder().decode(release.document)).data[0].scope.product.key as string;
const listing = `/v1/products/${productKey}/profiles`;
let key: string;

const send = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`${ORIGIN}${path}`, init));
const keyed = (path: string, headers: Record<string, string> = {}) =>
  send(path, { headers: { Authorization: `Bearer ${key}`, ...headers } });
const varyOf = (res: Response) => (res.headers.get("vary") ?? "").split(/\s*,\s*/).map((name) => name.toLowerCase());

beforeAll(async () => {
  await publish(release);
  key = await sharedTestKey();
});

describe("Cache-Control on every answer (item 7)", () => {
  it("is on every route's answer to GET and OPTIONS, with and without a key", async () => {
    const missing: string[] = [];
    for (const path of routePaths(app)) {
      for (const method of ["GET", "OPTIONS"]) {
        for (const res of [await send(path, { method }), await keyed(path)]) {
          if (!res.headers.get("cache-control")) missing.push(`${method} ${path} → ${res.status}`);
          await res.body?.cancel();
        }
      }
    }
    expect(missing).toEqual([]);
    // Four requests to every route: 4.4 s alone at a load average of 18, over the 5 s default.
  }, 30_000);

  it("says no-cache on /openapi.json and no-store on OPTIONS", async () => {
    expect((await send("/openapi.json")).headers.get("cache-control")).toBe("no-cache");
    const options = await send("/v1/catalog", { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("cache-control")).toBe("no-store");
  });
});

describe("Vary: Authorization on answers that depend on the credential (item 8)", () => {
  it.each([
    ["/v1/catalog", 200],
    ["/v1/releases/current", 200],
    ["/v1/keys", 200],
    ["/v2/cheeses", 200],
  ])("GET %s → %i with Vary: Authorization, and so is the 401 without a key", async (path, status) => {
    const res = await keyed(path);
    expect(res.status).toBe(status);
    expect(varyOf(res)).toContain("authorization");
    await res.body?.cancel();
    const anonymous = await send(path);
    expect(anonymous.status).toBe(401);
    expect(varyOf(anonymous)).toContain("authorization");
  });

  it("is on a 304 too, and not on public answers", async () => {
    const etag = `"${release.manifest.release_id}"`;
    const notModified = await keyed("/v1/catalog", { "If-None-Match": etag });
    expect(notModified.status).toBe(304);
    expect(varyOf(notModified)).toContain("authorization");
    expect(varyOf(await send("/openapi.json"))).not.toContain("authorization");
  });
});

describe("compressed only with Vary: Accept-Encoding, else identity (item 6)", () => {
  it("serves a product listing identity-coded, like the document, whose digest names what is sent", async () => {
    const res = await keyed(listing, { "Accept-Encoding": "gzip, br" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("identity");
    expect(res.headers.get("cache-control")).toContain("no-transform");
    expect(res.headers.get("content-digest")).toMatch(/^sha-256=:/);
  });

  it("gives every other answer Vary: Accept-Encoding (the edge may compress it)", async () => {
    for (const path of ["/docs", "/favicon.svg", "/openapi.json", "/docs/errors"]) {
      const res = await send(path, { headers: { "Accept-Encoding": "gzip" } });
      expect(res.status, path).toBe(200);
      expect(varyOf(res), path).toContain("accept-encoding");
      await res.body?.cancel();
    }
    const keys = await keyed("/v1/keys");
    expect(varyOf(keys)).toEqual(expect.arrayContaining(["authorization", "accept-encoding"]));
  });

  it("holds on every route: no-transform with identity coding, or Vary: Accept-Encoding", async () => {
    const wrong: string[] = [];
    for (const path of [...routePaths(app), listing, "/v1/catalog/parts/0", "/v1/profiles/x/y"]) {
      const res = await keyed(path, { "Accept-Encoding": "gzip" });
      const identity = /no-transform/.test(res.headers.get("cache-control") ?? "");
      const hasBody = res.status === 200 || res.status === 206;
      if (
        identity
          ? hasBody && res.headers.get("content-encoding") !== "identity"
          : !varyOf(res).includes("accept-encoding")
      )
        wrong.push(`${path} → ${res.status}`);
      await res.body?.cancel();
    }
    expect(wrong).toEqual([]);
  });
});

describe("CORS on the bearer API, without credentials (item 10)", () => {
  const page = "https://app.example";

  it("answers a preflight for GET with Authorization and Range", async () => {
    const res = await send("/v1/catalog", {
      method: "OPTIONS",
      headers: {
        Origin: page,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization, range, if-none-match",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    const allowed = headerOf(res, "access-control-allow-headers").toLowerCase();
    for (const name of ["authorization", "range", "if-none-match", "if-range", "idempotency-key"])
      expect(allowed).toContain(name);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
  });

  it("lets the page read the catalog's headers, and the 401 of a missing key", async () => {
    const res = await keyed("/v1/catalog", { Origin: page });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = headerOf(res, "access-control-expose-headers").split(", ");
    for (const name of [
      "Catalog-Release",
      "Content-Digest",
      "Repr-Digest",
      "RateLimit",
      "RateLimit-Policy",
      "Retry-After",
      "Request-Id",
      "Link",
      "Content-Location",
      "Catalog-Document-Range",
      "ETag",
      "Idempotent-Replayed",
      "Idempotency-Warning",
    ])
      expect(exposed).toContain(name);
    expect(exposed).toEqual(CORS_EXPOSED_HEADERS);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    await res.body?.cancel();
    const refused = await send("/v1/catalog", { headers: { Origin: page } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("is not offered on the cookie pages, the operator API or OAuth's own endpoints", async () => {
    for (const path of ["/dashboard", "/login", "/operator/v1/accounts", "/docs"]) {
      const res = await send(path, { headers: { Origin: page } });
      expect(res.headers.get("access-control-allow-origin"), path).toBeNull();
      await res.body?.cancel();
    }
  });
});
