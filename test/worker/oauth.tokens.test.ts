/**
 * Codes and tokens are opaque: what a client or a redirect URL sees is a prefix and sealed bytes
 * (AES-256-GCM under OAUTH_TOKEN_KEY), naming neither the account nor the grant; a tampered one
 * is refused. Each test runs the real flow: consent page, code, token endpoint, API.
 *
 * OAUTH_TOKEN_KEY, the Worker secret that seals codes and tokens: without it (or malformed) every
 * OAuth path says which secret to set, with a 503 that changes nothing, never a 500; with
 * OAUTH_TOKEN_KEY_PREVIOUS, tokens sealed under the old key keep working through a rotation.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { registryApi } from "../../src/worker/auth/oauth/provider";
import * as oauth from "./oauth-support";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import app from "../../src/worker/index";
import { expectProblem } from "./support/problems";

async function flow(scope = "read:cheeses") {
  const account = await oauth.createCustomer();
  const { clientId, code, tokens } = await oauth.consentedTokens({ account, scope });
  const [grant] = (await registryApi(env).listUserGrants(account.id)).items;
  return { account, clientId, code, grantId: expectDefined(grant, "the customer's grant").id, tokens };
}

const callApi = (token: string) => oauth.bearerGet("/v2/cheeses", token);
const refresh = (clientId: string, token: string) => oauth.refreshRequest(clientId, token);

/** The bytes after the prefix, read as text the way anyone holding the token could. */
function revealed(token: string): string {
  const body = token.slice(4).replaceAll("-", "+").replaceAll("_", "/");
  return new TextDecoder().decode(Uint8Array.from(atob(body), (char) => char.charCodeAt(0)));
}

/** The same token with one character of its sealed body changed. */
function tampered(token: string, at: number): string {
  const chars = [...token];
  chars[at] = chars[at] === "A" ? "B" : "A";
  return chars.join("");
}

const BASE64URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** The same sealed bytes spelled another way: the last character with an unused low bit set. */
function respelled(token: string): string {
  const unusedBits = { 2: 4, 3: 2 }[(token.length - 4) % 4];
  if (!unusedBits) throw new Error(`a body of ${token.length - 4} characters has no unused bits`);
  const last = BASE64URL_ALPHABET.indexOf(expectDefined(token.at(-1), "a last character"));
  return token.slice(0, -1) + BASE64URL_ALPHABET[last | 1];
}

describe("opaque codes and tokens", () => {
  it("reveal nothing: a prefix and base64url, with no account id, grant id or userId:grantId:secret inside", async () => {
    const { account, code, grantId, tokens } = await flow();
    const shapes: [string, RegExp][] = [
      [code, /^oac_[A-Za-z0-9_-]+$/],
      [tokens.access_token, /^oat_[A-Za-z0-9_-]+$/],
      [tokens.refresh_token, /^ort_[A-Za-z0-9_-]+$/],
    ];
    for (const [value, shape] of shapes) {
      expect(value).toMatch(shape);
      const inside = revealed(value);
      expect(inside).not.toContain(account.id);
      expect(inside).not.toContain(grantId);
      expect(inside).not.toMatch(/^[\x21-\x7e]+:[\x21-\x7e]+:[\x21-\x7e]+$/);
    }
  });

  it("differ each time: two access tokens of one grant share nothing but the prefix and the key id", async () => {
    const { clientId, tokens } = await flow();
    const next = await (await refresh(clientId, tokens.refresh_token)).json<oauth.TokenBody>();
    const bytesOf = (token: string) =>
      Uint8Array.from(atob(token.slice(4).replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
    const a = bytesOf(tokens.access_token);
    const b = bytesOf(next.access_token);
    expect(a[0]).toBe(b[0]);
    expect(a.length).toBe(b.length);
    const same = a.slice(1).filter((byte, i) => byte === b[i + 1]).length;
    expect(same).toBeLessThan(a.length / 8); // random bytes agree 1 time in 256
  });
});

describe("a tampered code or token", () => {
  it("is 401 invalid_token on the API; the real token still works", async () => {
    const { tokens } = await flow();
    const token = tokens.access_token;
    for (const forged of [
      tampered(token, 10),
      tampered(token, token.length - 1),
      respelled(token),
      token.slice(0, -4),
      `oat_${token.slice(8)}`,
      `oat_${tokens.refresh_token.slice(4)}`,
    ]) {
      const res = await callApi(forged);
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
      expect((await res.json<{ code: string }>()).code).toBe("invalid_token");
    }
    expect((await callApi(token)).status).toBe(200);
  });

  it("is invalid_grant at the token endpoint, as a refresh token or a code, and uses nothing up", async () => {
    const { clientId, verifier, code } = await oauth.authorizedCode();
    const exchange = (value: string) => oauth.tokenRequest(oauth.codeExchange(clientId, value, verifier));
    for (const forged of [
      tampered(code, 20),
      code.slice(0, -2),
      `oac_${code.slice(8)}`,
      code.replace("oac_", "oat_"),
    ]) {
      const res = await exchange(forged);
      expect(res.status).toBe(400);
      expect((await res.json<oauth.TokenBody>()).error).toBe("invalid_grant");
    }
    const tokens = await (await exchange(code)).json<oauth.TokenBody>();
    expect(tokens.access_token).toMatch(/^oat_/);

    for (const forged of [tampered(tokens.refresh_token, 30), `ort_${tokens.access_token.slice(4)}`]) {
      const res = await refresh(clientId, forged);
      expect(res.status).toBe(400);
      expect((await res.json<oauth.TokenBody>()).error).toBe("invalid_grant");
    }
    expect((await refresh(clientId, tokens.refresh_token)).status).toBe(200);
  });

  it("is a no-op at the revocation endpoint (RFC 7009 §2.2): 200, and the real token still works", async () => {
    const { clientId, tokens } = await flow();
    const res = await exports.default.fetch(`${oauth.ORIGIN}/oauth/revoke`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tampered(tokens.access_token, 12), client_id: clientId }),
    });
    expect(res.status).toBe(200);
    expect((await callApi(tokens.access_token)).status).toBe(200);
  });
});

type Secrets = { OAUTH_TOKEN_KEY?: string; OAUTH_TOKEN_KEY_PREVIOUS?: string };
const current = expectDefined((env as unknown as Secrets).OAUTH_TOKEN_KEY, "OAUTH_TOKEN_KEY in the test env");
const newKey = () =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

async function fetchWith(secrets: Secrets, path: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(`${oauth.ORIGIN}${path}`, init), { ...env, ...secrets } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields),
});
const bearer = (token: string): RequestInit => ({ headers: { Authorization: `Bearer ${token}` } });

describe("without a usable OAUTH_TOKEN_KEY", () => {
  const broken: [string, Secrets, RegExp][] = [
    ["missing", { OAUTH_TOKEN_KEY: undefined }, /OAUTH_TOKEN_KEY secret is missing/],
    ["16 bytes", { OAUTH_TOKEN_KEY: current.slice(0, 22) }, /OAUTH_TOKEN_KEY is not 32 bytes/],
  ];

  it.each(broken)(
    "%s: the token endpoint answers 503 temporarily_unavailable naming the secret, and the code is not used up",
    async (_name, secrets, says) => {
      const { exchange } = await oauth.authorizedCode();
      const refused = await fetchWith(secrets, "/oauth/token", form(exchange));
      expect(refused.status).toBe(503);
      expect(refused.headers.get("Cache-Control")).toBe("no-store");
      const body = await refused.json<oauth.TokenBody>();
      expect(body.error).toBe("temporarily_unavailable");
      expect(body.error_description).toMatch(says);
      expect((await fetchWith({}, "/oauth/token", form(exchange))).status).toBe(200);
    },
  );

  it("the authorize page, the API and the revocation endpoint answer 503 naming OAUTH_TOKEN_KEY", async () => {
    const { clientId, challenge, exchange } = await oauth.authorizedCode();
    const tokens = await (await fetchWith({}, "/oauth/token", form(exchange))).json<oauth.TokenBody>();
    const missing = { OAUTH_TOKEN_KEY: undefined };

    const authorize = new URL(oauth.authorizeUrl(oauth.standardParams(clientId, challenge)));
    const page = await fetchWith(missing, authorize.pathname + authorize.search);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("OAUTH_TOKEN_KEY");

    const api = await expectProblem(
      await fetchWith(missing, "/v2/cheeses", bearer(tokens.access_token)),
      503,
      "oauth_not_configured",
    );
    expect(api.detail).toContain("OAUTH_TOKEN_KEY");

    const revoked = await fetchWith(
      missing,
      "/oauth/revoke",
      form({ token: tokens.access_token, client_id: clientId }),
    );
    expect(revoked.status).toBe(503);
    expect((await revoked.json<oauth.TokenBody>()).error_description).toContain("OAUTH_TOKEN_KEY");
    expect((await fetchWith({}, "/v2/cheeses", bearer(tokens.access_token))).status).toBe(200);
  });
});

describe("rotating OAUTH_TOKEN_KEY", () => {
  it("keeps tokens of the previous key working while it is OAUTH_TOKEN_KEY_PREVIOUS, and only then", async () => {
    const { clientId, exchange } = await oauth.authorizedCode();
    const old = await (await fetchWith({}, "/oauth/token", form(exchange))).json<oauth.TokenBody>();
    const next = newKey();
    const rotating = { OAUTH_TOKEN_KEY: next, OAUTH_TOKEN_KEY_PREVIOUS: current };

    expect((await fetchWith(rotating, "/v2/cheeses", bearer(old.access_token))).status).toBe(200);
    const refreshed = await fetchWith(
      rotating,
      "/oauth/token",
      form({ grant_type: "refresh_token", refresh_token: old.refresh_token, client_id: clientId }),
    );
    expect(refreshed.status).toBe(200);
    const sealedByNext = await refreshed.json<oauth.TokenBody>();

    expect((await fetchWith(rotating, "/v2/cheeses", bearer(old.access_token))).status).toBe(200);

    const rotated = { OAUTH_TOKEN_KEY: next };
    expect((await fetchWith(rotated, "/v2/cheeses", bearer(sealedByNext.access_token))).status).toBe(200);
    expect((await fetchWith(rotated, "/v2/cheeses", bearer(old.access_token))).status).toBe(401);
  });
});
