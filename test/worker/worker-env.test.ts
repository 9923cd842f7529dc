/**
 * The Worker's environment is checked by one schema (src/worker/env.ts): a deployment mistake
 * answers every request with a 500 problem and logs which binding or var is wrong, on the first
 * request of the isolate, whatever its route. The real app, bindings and vars, with one changed.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { workerEnv } from "../../src/worker/env";
import { call } from "./auth-fixtures";

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
