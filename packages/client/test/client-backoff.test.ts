/**
 * The client package's retry schedule on a fake clock (no sleeping): which statuses are retried,
 * how long it waits (Retry-After, else capped full-jitter backoff), and when it gives up.
 */
import { describe, expect, it } from "vitest";
import { CatalogApiError } from "../src/errors.js";
import { DEFAULT_RETRY_POLICY } from "../src/retry-policy.js";
import { client, problem } from "./client-fakes";

const URL_ = "https://api.test/v1/releases/current";

describe("retried: 429 and 503 after Retry-After", () => {
  it("503 with Retry-After: 3 waits exactly 3 s, then succeeds", async () => {
    const { http, server, clock } = client([
      problem(503, "catalog_unavailable", { "Retry-After": "3" }),
      new Response("ok"),
    ]);
    expect((await http.get(URL_)).status).toBe(200);
    expect(clock.sleeps).toEqual([3000]);
    expect(server.requests).toHaveLength(2);
  });

  it("429 with an HTTP-date Retry-After waits until that moment", async () => {
    const at = new Date(Date.UTC(2026, 0, 1) + 7_000).toUTCString();
    const { http, clock } = client([problem(429, "rate_limited", { "Retry-After": at }), new Response("ok")]);
    await http.get(URL_);
    expect(clock.sleeps).toEqual([7000]);
  });

  it("gives up at once when Retry-After is longer than the client waits, saying how long", async () => {
    const { http, server, clock } = client([problem(429, "rate_limited", { "Retry-After": "3600" })]);
    const error = await http.get(URL_).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CatalogApiError);
    expect(String(error)).toContain("wait 3600 s");
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});

describe("retried: other 5xx and network failures, with capped exponential backoff and full jitter", () => {
  it("doubles the ceiling each retry and draws uniformly below it (random 0.5 → half)", async () => {
    const { http, clock } = client([
      problem(500, "internal_error"),
      problem(502, "x"),
      problem(504, "x"),
      problem(503, "x"),
      new Response("ok"),
    ]);
    await http.get(URL_);
    expect(clock.sleeps).toEqual([250, 500, 1000, 2000]);
  });

  it("caps the ceiling at maxDelayMs", async () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxDelayMs: 1_000, maxAttempts: 6 };
    const { http, clock } = client([...Array.from({ length: 5 }, () => problem(500, "x")), new Response("ok")], {
      policy,
      random: () => 0.999,
    });
    await http.get(URL_);
    expect(clock.sleeps).toEqual([499, 999, 999, 999, 999]);
  });

  it("full jitter: a draw of 0 retries at once", async () => {
    const { http, clock } = client([problem(500, "x"), problem(500, "x"), new Response("ok")], { random: () => 0 });
    await http.get(URL_);
    expect(clock.sleeps).toEqual([0, 0]);
  });

  it("retries a network failure and names its cause when it gives up", async () => {
    const refused = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    const { http, server } = client(Array.from({ length: 6 }, () => refused));
    await expect(http.get(URL_)).rejects.toThrow("network error (fetch failed: ECONNREFUSED) after 6 attempts");
    expect(server.requests).toHaveLength(6);
  });

  it("a Retry-After on a 500 is not an instruction: the backoff applies", async () => {
    const { http, clock } = client([problem(500, "x", { "Retry-After": "30" }), new Response("ok")]);
    await http.get(URL_);
    expect(clock.sleeps).toEqual([250]);
  });

  it("stops after maxAttempts tries", async () => {
    const { http, server, clock } = client(Array.from({ length: 10 }, () => problem(503, "x")));
    await expect(http.get(URL_)).rejects.toThrow("after 6 attempts");
    expect(server.requests).toHaveLength(6);
    expect(clock.sleeps).toHaveLength(5);
  });

  it("shares a retry budget across requests: a failing server gets no retry storm", async () => {
    const { http, server } = client(
      Array.from({ length: 20 }, () => problem(503, "x")),
      { budget: { maxTokens: 3, tokensPerSuccess: 0.5 } },
    );
    await expect(http.get(URL_)).rejects.toThrow("retry budget exhausted");
    expect(server.requests).toHaveLength(4); // the first try and 3 retries
    await expect(http.get(URL_)).rejects.toThrow("retry budget exhausted");
    expect(server.requests).toHaveLength(5); // no retry left for the second request
  });
});

describe("never retried: 401, 403 and every other 4xx", () => {
  it.each([
    [400, "invalid_release_id"],
    [401, "invalid_api_key"],
    [403, "insufficient_scope"],
    [404, "release_not_found"],
    [416, "range_not_satisfiable"],
  ])("%i %s fails at once with the server's code and detail", async (status, code) => {
    const { http, server, clock } = client([problem(status, code, { "Retry-After": "1" })]);
    const error = (await http.get(URL_).catch((caught: unknown) => caught)) as CatalogApiError;
    expect(error).toBeInstanceOf(CatalogApiError);
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.message).toContain(`→ ${status} ${code}: ${code} detail`);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});

describe("credentials", () => {
  it("sends the key as a Bearer token on every try, and nothing without a key", async () => {
    const withKey = client([problem(503, "x", { "Retry-After": "0" }), new Response("ok")], { key: "sk_test_example" });
    await withKey.http.get(URL_);
    expect(withKey.server.requests.map((request) => request.headers.get("authorization"))).toEqual([
      "Bearer sk_test_example",
      "Bearer sk_test_example",
    ]);
    const anonymous = client([new Response("ok")]);
    await anonymous.http.get(URL_);
    expect(anonymous.server.requests.map((request) => request.headers.has("authorization"))).toEqual([false]);
  });
});
