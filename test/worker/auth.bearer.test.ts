/**
 * The Authorization header: the pure parser on raw values, then the same values through the worker,
 * where each must be a 401 problem that names the problem, decided before any storage is touched.
 */
import { describe, expect, it } from "vitest";
import { API_KEY_LENGTH, checkApiKeyFormat, generateApiKey } from "../../src/common/auth/api-key";
import { parseAuthorization } from "../../src/worker/auth/bearer";
import { call, countingEnv, freshIp } from "./auth-fixtures";
import { headerOf } from "./support/api";
import { MALFORMED_CASES, RAW_ONLY_CASES, WELL_FORMED } from "./auth.malformed-values";

describe("API key format", () => {
  it("generates sk_<mode>_ + 30 base62 + 6 base62 checksum characters that pass its own check", () => {
    for (const mode of ["live", "test"] as const) {
      for (let i = 0; i < 200; i++) {
        const { secret, last4 } = generateApiKey(mode);
        expect(secret).toMatch(new RegExp(`^sk_${mode}_[0-9A-Za-z]{36}$`));
        expect(secret).toHaveLength(API_KEY_LENGTH);
        expect(last4).toBe(secret.slice(-4));
        expect(checkApiKeyFormat(secret)).toEqual({ ok: true, mode });
      }
    }
  });

  it("never generates the same key twice in 10,000 draws", () => {
    const seen = new Set(Array.from({ length: 10_000 }, () => generateApiKey("live").secret));
    expect(seen.size).toBe(10_000);
  });

  it("catches every single-character substitution through the checksum", () => {
    const { secret } = generateApiKey("test");
    const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    for (let position = 8; position < secret.length; position++) {
      const replacement = alphabet.charAt((alphabet.indexOf(secret.charAt(position)) + 17) % 62);
      const mutated = secret.slice(0, position) + replacement + secret.slice(position + 1);
      expect(checkApiKeyFormat(mutated).ok, `position ${position}`).toBe(false);
    }
  });
});

describe("parseAuthorization (pure)", () => {
  it("accepts exactly `Bearer <key>`, the scheme in any case (RFC 9110 §11.1)", () => {
    for (const scheme of ["Bearer", "bearer", "BEARER", "bEaReR"]) {
      expect(parseAuthorization(`${scheme} ${WELL_FORMED.live}`)).toEqual({
        ok: true,
        credential: { type: "api_key", secret: WELL_FORMED.live, mode: "live" },
      });
    }
  });

  it("hands any other well-formed credential to the access-token branch", () => {
    expect(parseAuthorization("Bearer user:grant:c2VjcmV0")).toEqual({
      ok: true,
      credential: { type: "access_token", token: "user:grant:c2VjcmV0" },
    });
  });

  it.each([
    ...MALFORMED_CASES.map((c) => ({ ...c, raw: c.header })),
    ...RAW_ONLY_CASES.map((c) => ({ ...c, raw: c.header, code: "invalid_authorization_header" as const })),
  ])("refuses $name", ({ raw, code, detail }) => {
    const parsed = parseAuthorization(raw);
    if (code === "wrong_deployment") {
      expect(parsed.ok).toBe(true); // the prefix is well formed; the deployment check refuses it
      return;
    }
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.code).toBe(code);
    expect(parsed.detail).toMatch(detail);
    expect(parsed.credentialSent).toBe(code !== "unauthenticated");
  });
});

describe("malformed Authorization through the worker", () => {
  it(`has at least 40 malformed values to try (${MALFORMED_CASES.length})`, () => {
    expect(MALFORMED_CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(MALFORMED_CASES)("$name → 401 $code, no storage read or write", async ({ header, code, detail }) => {
    const { env, calls } = countingEnv();
    const headers: Record<string, string> = { "CF-Connecting-IP": freshIp() };
    if (header !== null) headers.Authorization = header;
    const res = await call("/v2/cheeses", { headers }, env);

    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await res.json<{ code: string; detail: string; request_id: string; status: number }>();
    expect(problem.code).toBe(code);
    expect(problem.status).toBe(401);
    expect(problem.detail).toMatch(detail);
    expect(problem.request_id).toBe(res.headers.get("request-id"));
    const challenge = headerOf(res, "www-authenticate");
    expect(challenge).toMatch(/^Bearer realm="readiness-catalog-production"/);
    // RFC 6750 §3.1: error="invalid_token" exactly when a credential was sent.
    expect(challenge.includes('error="invalid_token"')).toBe(code !== "unauthenticated");
    expect(calls).toEqual([]);
    for (const secret of [WELL_FORMED.live, WELL_FORMED.test, WELL_FORMED.live.slice(8, 38)]) {
      expect(problem.detail).not.toContain(secret);
      expect(challenge).not.toContain(secret);
    }
  });

  it("sends a non-sk_ credential to the access-token branch: 401 invalid_token", async () => {
    const res = await call("/v2/cheeses", {
      headers: { Authorization: "Bearer someone:grant:dG9rZW4", "CF-Connecting-IP": freshIp() },
    });
    expect(res.status).toBe(401);
    expect((await res.json<{ code: string }>()).code).toBe("invalid_token");
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("tells a credential that is neither a key nor a token where each comes from, not only /oauth/token", async () => {
    const res = await call("/v2/cheeses", {
      headers: { Authorization: "Bearer hello", "CF-Connecting-IP": freshIp() },
    });
    const { detail } = await res.json<{ detail: string }>();
    expect(detail).toContain("neither an API key (sk_live_… or sk_test_…) nor an OAuth access token (oat_…)");
    expect(detail).toContain("/dashboard/keys");
    const token = await call("/v2/cheeses", {
      headers: { Authorization: "Bearer oat_bm90LWEtdG9rZW4", "CF-Connecting-IP": freshIp() },
    });
    expect((await token.json<{ detail: string }>()).detail).toMatch(/access token is unknown, expired.*\/oauth\/token/);
  });
});
