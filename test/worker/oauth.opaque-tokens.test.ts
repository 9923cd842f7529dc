/**
 * Codes and tokens are opaque: what a client or a redirect URL sees is a prefix and sealed bytes
 * (AES-256-GCM under OAUTH_TOKEN_KEY), naming neither the account nor the grant; a tampered one
 * is refused. Each test runs the real flow: consent page, code, token endpoint, API.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { registryApi } from "../../src/worker/auth/oauth/provider";
import {
  authorizedCode,
  bearerGet,
  codeExchange,
  consentedTokens,
  createCustomer,
  ORIGIN,
  refreshRequest,
  type TokenBody,
  tokenRequest,
} from "./oauth-support";

async function flow(scope = "read:cheeses") {
  const account = await createCustomer();
  const { clientId, code, tokens } = await consentedTokens({ account, scope });
  const [grant] = (await registryApi(env).listUserGrants(account.id)).items;
  return { account, clientId, code, grantId: grant!.id, tokens };
}

const callApi = (token: string) => bearerGet("/v2/cheeses", token);
const refresh = (clientId: string, token: string) => refreshRequest(clientId, token);

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
  const last = BASE64URL_ALPHABET.indexOf(token.at(-1)!);
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
    const next = await (await refresh(clientId, tokens.refresh_token)).json<TokenBody>();
    const [a, b] = [tokens.access_token, next.access_token].map((token) =>
      Uint8Array.from(atob(token.slice(4).replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0)),
    );
    expect(a![0]).toBe(b![0]);
    expect(a!.length).toBe(b!.length);
    const same = a!.slice(1).filter((byte, i) => byte === b![i + 1]).length;
    expect(same).toBeLessThan(a!.length / 8); // random bytes agree 1 time in 256
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
    const { clientId, verifier, code } = await authorizedCode();
    const exchange = (value: string) => tokenRequest(codeExchange(clientId, value, verifier));
    for (const forged of [
      tampered(code, 20),
      code.slice(0, -2),
      `oac_${code.slice(8)}`,
      code.replace("oac_", "oat_"),
    ]) {
      const res = await exchange(forged);
      expect(res.status).toBe(400);
      expect((await res.json<TokenBody>()).error).toBe("invalid_grant");
    }
    const tokens = await (await exchange(code)).json<TokenBody>();
    expect(tokens.access_token).toMatch(/^oat_/);

    for (const forged of [tampered(tokens.refresh_token, 30), `ort_${tokens.access_token.slice(4)}`]) {
      const res = await refresh(clientId, forged);
      expect(res.status).toBe(400);
      expect((await res.json<TokenBody>()).error).toBe("invalid_grant");
    }
    expect((await refresh(clientId, tokens.refresh_token)).status).toBe(200);
  });

  it("is a no-op at the revocation endpoint (RFC 7009 §2.2): 200, and the real token still works", async () => {
    const { clientId, tokens } = await flow();
    const res = await exports.default.fetch(`${ORIGIN}/oauth/revoke`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tampered(tokens.access_token, 12), client_id: clientId }),
    });
    expect(res.status).toBe(200);
    expect((await callApi(tokens.access_token)).status).toBe(200);
  });
});
