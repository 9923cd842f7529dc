/**
 * The worker answers: an unknown route is a 404 problem carrying the request id, and Hono's
 * HTTPExceptions keep their status as problems (a 5xx left to the internal-error path). And the
 * Worker's environment is checked by one schema (src/worker/env.ts): a deployment mistake
 * answers every request with a 500 problem and logs which binding or var is wrong, on the first
 * request of the isolate, whatever its route. The real app, bindings and vars, with one changed.
 */
import { env, exports } from "cloudflare:workers";
import { HTTPException } from "hono/http-exception";
import { afterEach, describe, expect, it, vi } from "vitest";
import { problemOfHttpException } from "../../src/worker/http/http-exception";
import { workerEnv } from "../../src/worker/env";
import { call } from "./auth-fixtures";

describe("worker", () => {
  it("answers an unknown route with a 404 problem carrying the request id", async () => {
    const res = await exports.default.fetch("https://api.test/nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = await res.json<{ code: string; request_id: string }>();
    expect(body.code).toBe("not_found");
    expect(body.request_id).toBe(res.headers.get("request-id"));
  });
});

describe("HTTPExceptions from Hono and zod-openapi", () => {
  it.each([
    [400, "bad_request"],
    [403, "forbidden"],
    [404, "not_found"],
    [415, "unsupported_media_type"],
  ] as const)("%i keeps its status as the problem %s", (status, code) => {
    const problem = problemOfHttpException(new HTTPException(status, { message: "Refused" }), "text/plain");
    expect(problem?.code).toBe(code);
    expect(problem?.status).toBe(status);
  });

  it("a 5xx is ours, not the client's: left to the internal-error path", () => {
    expect(problemOfHttpException(new HTTPException(500, { message: "Cannot clone request" }), undefined)).toBeNull();
  });
});

afterEach(() => vi.restoreAllMocks());

/** The response to a public route under `bindings`, and what the worker logged as an error. */
async function answerWith(bindings: Record<string, unknown>) {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const res = await call("/openapi.json", {}, { ...env, ...bindings } as unknown as Env);
  return { res, logged: errors.mock.calls.map((args) => String(args[0])).join("\n") };
}

describe("a misconfigured deployment", () => {
  it.each([
    [
      "a malformed RATE_LIMITS",
      { RATE_LIMITS: { live: { rate: 0, burst: 1 }, test: { rate: 1, burst: 1 } } },
      /RATE_LIMITS\.live\.rate/,
    ],
    ["a RATE_LIMITS without a mode", { RATE_LIMITS: { live: { rate: 1, burst: 1 } } }, /RATE_LIMITS\.test/],
    [
      "a fractional burst",
      { RATE_LIMITS: { live: { rate: 1, burst: 0.5 }, test: { rate: 1, burst: 1 } } },
      /RATE_LIMITS\.live\.burst/,
    ],
    ["a missing KV binding", { CATALOG_KV: undefined }, /CATALOG_KV is not a KV namespace binding/],
    ["a misspelt CLIENT_ADDRESS_SOURCE", { CLIENT_ADDRESS_SOURCE: "cf-connecting_ip" }, /CLIENT_ADDRESS_SOURCE/],
    ["an unknown KEY_MODE", { KEY_MODE: "prod" }, /KEY_MODE/],
    ["a PUBLIC_ORIGINS entry that is no URL", { PUBLIC_ORIGINS: ["api.example"] }, /PUBLIC_ORIGINS\.0/],
  ])("with %s answers 500 internal_error and logs what is wrong", async (_, bindings, named) => {
    const { res, logged } = await answerWith(bindings);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: "internal_error" });
    expect(logged).toMatch(/The Worker's environment is invalid/);
    expect(logged).toMatch(named);
  });
});

describe("a configured deployment", () => {
  it("passes the check, once per env object, with the secrets it lacks left out", async () => {
    const checked = workerEnv(env);
    expect(workerEnv(env)).toBe(checked);
    expect(checked.RATE_LIMITS).toEqual({ live: { rate: 100, burst: 100 }, test: { rate: 25, burst: 25 } });
    expect(checked.OPERATOR_SECRET).toBeUndefined();
    expect((await answerWith({})).res.status).toBe(200);
  });
});
