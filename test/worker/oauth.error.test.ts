import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import * as oauth from "./oauth-support";

async function expectErrorPage(url: string, text: string) {
  const res = await new oauth.Browser().get(url);
  expect(res.status).toBe(400);
  expect(res.headers.get("Location")).toBeNull();
  expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
  expect(await res.text()).toContain(text);
}

describe("GET /oauth/authorize: errors shown on our page (never a redirect)", () => {
  it("unknown client_id", async () => {
    const { challenge } = await oauth.pkcePair();
    await expectErrorPage(oauth.authorizeUrl(oauth.standardParams("no-such-client", challenge)), "Unknown application");
  });

  it("missing client_id", async () => {
    const { challenge } = await oauth.pkcePair();
    await expectErrorPage(
      oauth.authorizeUrl(oauth.standardParams("x", challenge, { client_id: undefined })),
      "no client_id",
    );
  });

  it("missing redirect_uri", async () => {
    await expectErrorPage(await oauth.newClientAuthorizeUrl({ redirect_uri: undefined }), "no redirect_uri");
  });
});

describe("GET /oauth/authorize: errors of a known client and redirect URI are shown too, never redirected", () => {
  it("unsupported_response_type", async () => {
    await oauth.expectRefusedOnOurPage(
      await oauth.newClientAuthorizeUrl({ response_type: "token" }),
      "unsupported_response_type",
      /response_type/,
    );
  });

  it("invalid_scope for an unknown scope, naming it", async () => {
    const url = await oauth.newClientAuthorizeUrl({ scope: "read:cheeses delete:everything" });
    await oauth.expectRefusedOnOurPage(url, "invalid_scope", /delete:everything/);
  });

  it("invalid_scope when no scope is requested", async () => {
    await oauth.expectRefusedOnOurPage(
      await oauth.newClientAuthorizeUrl({ scope: undefined }),
      "invalid_scope",
      /scope is required/,
    );
  });

  it("invalid_request without PKCE, for public and confidential clients alike", async () => {
    for (const isPublic of [true, false]) {
      const withoutPkce = { code_challenge: undefined, code_challenge_method: undefined };
      const url = await oauth.newClientAuthorizeUrl(withoutPkce, { public: isPublic });
      await oauth.expectRefusedOnOurPage(url, "invalid_request", /code_challenge|PKCE/);
    }
  });

  it("invalid_request when code_challenge_method is missing (it would default to plain)", async () => {
    const url = await oauth.newClientAuthorizeUrl({ code_challenge_method: undefined }, { public: false });
    await oauth.expectRefusedOnOurPage(url, "invalid_request", /plain|S256/);
  });

  it("invalid_request for a repeated parameter", async () => {
    const url = new URL(await oauth.newClientAuthorizeUrl());
    url.searchParams.append("scope", "admin");
    await oauth.expectRefusedOnOurPage(url.toString(), "invalid_request", /scope must not be repeated/);
  });
});

describe("the one error redirected to the client: the customer's own Deny on the consent page", () => {
  it("access_denied when the customer clicks Deny", async () => {
    const { browser, consent } = await oauth.openConsent();
    const back = await oauth.decide(browser, consent, "deny");
    expect(back.origin + back.pathname).toBe(oauth.REDIRECT_URI);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("xyz-state");
    expect(back.searchParams.get("iss")).toBe(oauth.ORIGIN);
    expect(back.searchParams.get("code")).toBeNull();
  });
});

describe("sign-in and consent form errors", () => {
  it("a wrong password and an unknown email get the same 401 answer", async () => {
    const account = await oauth.createCustomer();
    for (const [email, password] of [
      [account.email, "wrong password"],
      ["nobody@example.com", "whatever"],
    ] as const) {
      const browser = new oauth.Browser();
      const page = await (await browser.get(`${oauth.ORIGIN}/login`)).text();
      const res = await browser.post(`${oauth.ORIGIN}/login`, {
        csrf_token: oauth.formField(page, "csrf_token"),
        email,
        password,
      });
      expect(res.status).toBe(401);
      expect(await res.text()).toContain("do not match an account");
    }
  });

  it("locks sign-in after repeated failures and says when to retry", async () => {
    const account = await oauth.createCustomer();
    const browser = new oauth.Browser();
    const page = await (await browser.get(`${oauth.ORIGIN}/login`)).text();
    const csrf = oauth.formField(page, "csrf_token");
    const signIn = () =>
      browser.post(`${oauth.ORIGIN}/login`, { csrf_token: csrf, email: account.email, password: "wrong" });
    for (let attempt = 1; attempt < 6; attempt++) await signIn();
    const last = await signIn();
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await last.text()).toContain("Too many failed sign-ins");
  });

  it("a consent handle works once", async () => {
    const { browser, consent } = await oauth.openConsent();
    await oauth.decide(browser, consent, "approve");
    const again = await oauth.submitConsent(browser, consent, "approve");
    expect(again.status).toBe(400);
    expect(again.headers.get("Location")).toBeNull();
  });
});

describe("token and revocation endpoint errors", () => {
  it("/oauth/token without grant_type is invalid_request (not a revocation)", async () => {
    const res = await oauth.tokenRequest({ token: "oat_abc", client_id: "x" });
    expect(res.status).toBe(400);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect((await res.json<oauth.TokenBody>()).error).toBe("invalid_request");
  });

  it("a refresh token that is not one of ours is invalid_grant", async () => {
    const { clientId } = await oauth.registerClient();
    const res = await oauth.refreshRequest(clientId, "not-a-token");
    expect((await res.json<oauth.TokenBody>()).error).toBe("invalid_grant");
  });

  it("an unsupported grant type is unsupported_grant_type", async () => {
    const { clientId } = await oauth.registerClient();
    const res = await oauth.tokenRequest({ grant_type: "password", username: "a", password: "b", client_id: clientId });
    expect((await res.json<oauth.TokenBody>()).error).toBe("unsupported_grant_type");
  });

  it("/oauth/revoke refuses grant requests and requires token", async () => {
    const send = (fields: Record<string, string>) =>
      exports.default.fetch(`${oauth.ORIGIN}/oauth/revoke`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
    expect((await (await send({ grant_type: "refresh_token", token: "x" })).json<oauth.TokenBody>()).error).toBe(
      "invalid_request",
    );
    expect((await (await send({ client_id: "x" })).json<oauth.TokenBody>()).error).toBe("invalid_request");
  });

  // The routes only document their bodies (src/worker/auth/oauth/openapi.ts): no route layer
  // answers before the protocol code, with a problem+json or a 415 where RFC 6749 §5.2 is due.
  it.each([
    ["/oauth/token", "application/json", JSON.stringify({ grant_type: "refresh_token", refresh_token: "x" })],
    ["/oauth/revoke", "application/json", JSON.stringify({ token: "x" })],
    ["/oauth/token", "text/plain", "grant_type=refresh_token"],
    ["/oauth/register", "text/plain", "not json"],
  ])("%s with a %s body answers the protocol's JSON error, not the route layer's", async (path, type, body) => {
    const res = await exports.default.fetch(`${oauth.ORIGIN}${path}?unknown=ignored`, {
      method: "POST",
      headers: { "Content-Type": type },
      body,
    });
    expect([res.status, res.headers.get("Content-Type"), (await res.json<oauth.TokenBody>()).error]).toEqual([
      400,
      expect.stringMatching(/^application\/json/),
      "invalid_request",
    ]);
  });

  it("an unknown token is not an error at /oauth/revoke (RFC 7009 §2.2)", async () => {
    const { clientId } = await oauth.registerClient();
    const res = await exports.default.fetch(`${oauth.ORIGIN}/oauth/revoke`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: "oat_bm90LWEtdG9rZW4", client_id: clientId }),
    });
    expect(res.status).toBe(200);
  });

  it("the redirect_uri at the token endpoint must match the authorization request", async () => {
    const { clientId, verifier, browser, consent } = await oauth.openConsent({
      client: { redirectUris: [oauth.REDIRECT_URI, "https://app.example/other"] },
    });
    const code = expectDefined((await oauth.decide(browser, consent, "approve")).searchParams.get("code"), "a code");
    const res = await oauth.tokenRequest({
      grant_type: "authorization_code",
      code,
      redirect_uri: "https://app.example/other",
      client_id: clientId,
      code_verifier: verifier,
    });
    expect((await res.json<oauth.TokenBody>()).error).toBe("invalid_grant");
  });
});

/**
 * KV refuses keys over 512 bytes; a value that reaches a key must be refused before (no 500).
 * The limit is in bytes, so multi-byte values of few characters matter as much as long ones.
 */
const OVERLONG = {
  "513 ASCII": "a".repeat(513),
  "4 KiB ASCII": "A".repeat(4096),
  "200 × 2-byte é (400 bytes)": "é".repeat(200),
  "200 × 3-byte € (600 bytes)": "€".repeat(200),
  "150 × 4-byte emoji (600 bytes)": "🧀".repeat(150),
  "colons and a 3-byte tail": `${"a:".repeat(200)}€€€`,
};

describe("over-long and multi-byte identifiers are refused before storage (never 500)", () => {
  const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    exports.default.fetch(`${oauth.ORIGIN}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields),
    });

  for (const [label, value] of Object.entries(OVERLONG)) {
    it(`${label}: /oauth/authorize client_id is an error page`, async () => {
      const { challenge } = await oauth.pkcePair();
      const res = await new oauth.Browser().get(oauth.authorizeUrl(oauth.standardParams(value, challenge)));
      expect(res.status).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
    });

    it(`${label}: /oauth/token client_id, code, refresh_token and Basic credentials are 400/401 OAuth errors`, async () => {
      const { clientId } = await oauth.registerClient();
      const basic = `Basic ${btoa(`${encodeURIComponent(value)}:secret`)}`;
      const requests = [
        form("/oauth/token", { grant_type: "authorization_code", code: "a:b:c", client_id: value }),
        form("/oauth/token", { grant_type: "authorization_code", code: value, client_id: clientId }),
        form("/oauth/token", { grant_type: "refresh_token", refresh_token: value, client_id: clientId }),
        form("/oauth/token", { grant_type: "refresh_token", refresh_token: `ort_${value}`, client_id: clientId }),
        form("/oauth/token", { grant_type: "refresh_token", refresh_token: "x" }, { Authorization: basic }),
        form("/oauth/revoke", { token: value, client_id: clientId }),
        form("/oauth/revoke", { token: "oat_x", client_id: value }),
        form("/oauth/revoke", { token: `oat_${value}`, client_id: clientId }),
      ];
      for (const res of await Promise.all(requests)) {
        expect([400, 401], await res.clone().text()).toContain(res.status);
        expect(["invalid_request", "invalid_client", "invalid_grant"]).toContain(
          (await res.json<oauth.TokenBody>()).error,
        );
      }
    });

    it(`${label}: the API's bearer credential is 401`, async () => {
      for (const credential of [value, `oat_${value}`, `sk_live_${value}`]) {
        const res = await exports.default.fetch(`${oauth.ORIGIN}/v2/cheeses`, {
          headers: { Authorization: `Bearer ${encodeURIComponent(credential)}` },
        });
        expect(res.status).toBe(401);
      }
    });
  }
});
