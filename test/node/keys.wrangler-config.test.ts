/**
 * wrangler.toml gives both deployments what the auth code expects: the same Durable Object
 * classes (bindings do not inherit into [env.sandbox]), the key index namespace, the per-IP
 * limiter with the window the code announces in Retry-After, and the per-mode rate limits.
 */
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { AUTH_FAILURE_WINDOW_SECONDS, EDGE_ADDRESS_SOURCE } from "../../src/worker/limits/ip-throttle";
import { DEFAULT_RATE_LIMITS } from "../../src/worker/limits/policy";
import { SIGN_IN_WINDOW_SECONDS } from "../../src/worker/limits/sign-in-limit";

const configOf = (env?: string) => unstable_readConfig({ config: "wrangler.toml", env }, { hideWarnings: true });

describe.each([
  ["production", undefined],
  ["sandbox", "sandbox"],
])("%s deployment in wrangler.toml", (_name, env) => {
  const config = configOf(env);

  it("binds ACCOUNTS, ACCOUNT_DIRECTORY and SUBJECT_GUARDS to their SQLite-backed classes", () => {
    const bindings = Object.fromEntries(
      config.durable_objects.bindings.map((b: { name: string; class_name: string }) => [b.name, b.class_name]),
    );
    expect(bindings).toMatchObject({
      ACCOUNTS: "AccountObject",
      ACCOUNT_DIRECTORY: "AccountDirectory",
      SUBJECT_GUARDS: "SubjectGuard",
    });
    const sqlite = config.migrations.flatMap((m: { new_sqlite_classes?: string[] }) => m.new_sqlite_classes ?? []);
    expect(sqlite).toEqual(expect.arrayContaining(["AccountObject", "AccountDirectory", "KeyGuard"]));
  });

  it("renames the v1 KeyGuard to SubjectGuard in place, so existing guards keep their storage", () => {
    const renames = config.migrations.flatMap(
      (m: { renamed_classes?: { from: string; to: string }[] }) => m.renamed_classes ?? [],
    );
    expect(renames).toEqual([{ from: "KeyGuard", to: "SubjectGuard" }]);
    const created = config.migrations.flatMap((m: { new_sqlite_classes?: string[] }) => m.new_sqlite_classes ?? []);
    expect(created).not.toContain("SubjectGuard");
  });

  it("has its own AUTH_KV namespace for the key index (named locally; its Cloudflare id is not in wrangler.toml)", () => {
    const authKv = config.kv_namespaces.find((kv: { binding: string }) => kv.binding === "AUTH_KV");
    expect(authKv?.preview_id).toMatch(/^local-auth-kv/);
    expect(authKv?.id).toBeUndefined();
  });

  it("limits invalid credentials per IP over the window Retry-After announces", () => {
    const limiter = config.ratelimits.find((r: { name: string }) => r.name === "AUTH_FAILURE_LIMITER");
    expect(limiter?.simple.period).toBe(AUTH_FAILURE_WINDOW_SECONDS);
    expect(limiter?.simple.limit).toBeGreaterThan(0);
  });

  it("limits sign-in attempts per client address over the window Retry-After announces", () => {
    const limiter = config.ratelimits.find((r: { name: string }) => r.name === "SIGN_IN_LIMITER");
    expect(limiter?.simple).toEqual({ limit: 10, period: SIGN_IN_WINDOW_SECONDS });
  });

  it("takes the client address from CF-Connecting-IP once deployed behind the edge", () => {
    expect(config.vars.CLIENT_ADDRESS_SOURCE).toBe(EDGE_ADDRESS_SOURCE);
  });

  it("configures the per-mode defaults: live 100 req/s, test 25 req/s", () => {
    expect(config.vars.RATE_LIMITS).toEqual(DEFAULT_RATE_LIMITS);
  });

  it("lists its public origins as https origins only (each is an OAuth issuer; npm run deploy adds the deployed one)", () => {
    const listed = config.vars.PUBLIC_ORIGINS as string[];
    expect(Array.isArray(listed)).toBe(true);
    for (const origin of listed) expect(new URL(origin)).toMatchObject({ origin, protocol: "https:" });
  });
});

it("keeps production's and the sandbox's storage apart", () => {
  const ids = (env?: string) => configOf(env).kv_namespaces.map((kv: { preview_id?: string }) => kv.preview_id);
  for (const id of ids()) expect(ids("sandbox")).not.toContain(id);
  const namespaces = (env?: string) => configOf(env).ratelimits.map((r: { namespace_id: string }) => r.namespace_id);
  for (const id of namespaces()) expect(namespaces("sandbox")).not.toContain(id);
});
