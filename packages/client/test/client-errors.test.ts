/**
 * The client package's typed errors and cancellation: a final failure is a CatalogApiError with
 * the problem's code, status, request id, detail and Retry-After; an AbortSignal stops a request,
 * its retries and its backoff with the platform's AbortError, and an abort is never retried.
 */
import { describe, expect, it } from "vitest";
import { CatalogApiError } from "../src/errors.js";
import { createCatalogHttp } from "../src/http-client.js";
import { client, fakeClock, problem } from "./client-fakes";

const URL_ = "https://api.test/v1/releases/current";

/** What `promise` rejects with; the test fails if it resolves. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${String(value)}`);
    },
    (error: unknown) => error,
  );

describe("CatalogApiError", () => {
  it("carries code, status, detail, the Request-Id header and the problem's own fields", async () => {
    const { http } = client([problem(404, "release_not_found", { "Request-Id": "req_header" })]);
    const error = (await rejection(http.get(URL_))) as CatalogApiError;
    expect(error).toBeInstanceOf(CatalogApiError);
    expect(error.name).toBe("CatalogApiError");
    expect({
      status: error.status,
      code: error.code,
      detail: error.detail,
      requestId: error.requestId,
      retryAfter: error.retryAfter,
      url: error.url,
    }).toEqual({
      status: 404,
      code: "release_not_found",
      detail: "release_not_found detail",
      requestId: "req_header",
      retryAfter: null,
      url: URL_,
    });
  });

  it("takes request_id from the problem body when the header is missing", async () => {
    const body = JSON.stringify({ code: "invalid_api_key", detail: "no", request_id: "req_body" });
    const { http } = client([
      new Response(body, { status: 401, headers: { "Content-Type": "application/problem+json" } }),
    ]);
    expect(((await rejection(http.get(URL_))) as CatalogApiError).requestId).toBe("req_body");
  });

  it("a Retry-After too long to wait is given in seconds, so the caller knows when to come back", async () => {
    const { http } = client([problem(429, "rate_limited", { "Retry-After": "3600" })]);
    const error = (await rejection(http.get(URL_))) as CatalogApiError;
    expect([error.status, error.code, error.retryAfter]).toEqual([429, "rate_limited", 3600]);
  });

  it("a non-JSON answer has a status but no code or detail", async () => {
    const { http } = client([
      new Response("<html>no</html>", { status: 404, headers: { "Content-Type": "text/html" } }),
    ]);
    const error = (await rejection(http.get(URL_))) as CatalogApiError;
    expect([error.status, error.code, error.detail, error.requestId]).toEqual([404, null, null, null]);
  });

  it("a network failure that persists has no status; the message names its cause", async () => {
    const refused = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    const { http } = client(Array.from({ length: 6 }, () => refused));
    const error = (await rejection(http.get(URL_))) as CatalogApiError;
    expect(error).toBeInstanceOf(CatalogApiError);
    expect(error.status).toBeNull();
    expect(error.message).toContain("ECONNREFUSED");
  });
});

describe("cancellation with AbortSignal", () => {
  it("an aborted signal sends no request", async () => {
    const { http, server } = client([new Response("ok")]);
    const error = await rejection(http.get(URL_, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("AbortError");
    expect(server.requests).toHaveLength(0);
  });

  it("an abort during the backoff ends the wait and sends nothing more", async () => {
    const controller = new AbortController();
    const clock = fakeClock(Date.UTC(2026, 0, 1), () => controller.abort());
    const requests: Request[] = [];
    const http = createCatalogHttp({
      clock,
      random: () => 0.5,
      fetch: async (request) => {
        requests.push(request);
        return problem(503, "x");
      },
    });
    const error = await rejection(http.get(URL_, { signal: controller.signal }));
    expect((error as DOMException).name).toBe("AbortError");
    expect(requests).toHaveLength(1);
  });

  it("an abort while the system clock sleeps wakes it at once", async () => {
    const controller = new AbortController();
    const http = createCatalogHttp({
      random: () => 0.5,
      fetch: async () => problem(503, "x", { "Retry-After": "60" }),
    });
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(http.get(URL_, { signal: controller.signal }));
    expect((error as DOMException).name).toBe("AbortError");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("fetch rejecting because of the abort is not a network error to retry", async () => {
    const controller = new AbortController();
    const { http, server, clock } = client([
      async (request) => {
        controller.abort();
        request.signal.throwIfAborted();
        return new Response("unreachable");
      },
      new Response("ok"),
    ]);
    const error = await rejection(http.get(URL_, { signal: controller.signal }));
    expect((error as DOMException).name).toBe("AbortError");
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("the request carries the signal, so fetch itself can stop", async () => {
    const controller = new AbortController();
    const { http, server } = client([new Response("ok")]);
    await http.get(URL_, { signal: controller.signal });
    controller.abort();
    expect(server.requests.map((request) => request.signal.aborted)).toEqual([true]);
  });
});
