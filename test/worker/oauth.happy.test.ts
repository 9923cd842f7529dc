/**
 * The OAuth authorization server's happy paths: its metadata, the authorization code flow with
 * PKCE through sign-in and consent, tokens, refresh and revocation. The consent page names, in
 * plain words, what the app will be able to do with each scope it asks for
 * (src/worker/auth/oauth/scope-words.ts), with the scope itself beside the words.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { approveAdminRequest } from "../../src/worker/auth/oauth/admin-requests";
import { SCOPES } from "../../src/common/auth/scopes";
import { expectDefined } from "../../src/common/expect";
import * as oauth from "./oauth-support";
import { SCOPE_WORDS } from "../../src/worker/auth/oauth/scope-words";
import { visibleText } from "./dashboard-support";

describe("OAuth 2.0 authorization server metadata (RFC 8414)", () => {
  it("advertises our endpoints, every scope, S256 only, code only and iss in responses", async () => {
    const res = await exports.default.fetch(`${oauth.ORIGIN}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const metadata = await res.json<Record<string, unknown>>();
    expect(metadata).toMatchObject({
      issuer: oauth.ORIGIN,
      authorization_endpoint: `${oauth.ORIGIN}/oauth/authorize`,
      token_endpoint: `${oauth.ORIGIN}/oauth/token`,
      revocation_endpoint: `${oauth.ORIGIN}/oauth/revoke`,
      scopes_supported: [...SCOPES],
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      registration_endpoint: `${oauth.ORIGIN}/oauth/register`,
    });
  });

  it("is described in /openapi.json: the oauth2 scheme with every scope, and the token and revocation endpoints", async () => {
    const doc = await (await exports.default.fetch(`${oauth.ORIGIN}/openapi.json`)).json<{
      components: {
        securitySchemes: Record<
          string,
          { type: string; flows?: { authorizationCode: { scopes: Record<string, string> } } }
        >;
      };
      paths: Record<string, unknown>;
    }>();
    const scheme = expectDefined(doc.components.securitySchemes.oauth2, "the oauth2 security scheme");
    expect(scheme.type).toBe("oauth2");
    const { scopes } = expectDefined(scheme.flows, "the oauth2 scheme's flows").authorizationCode;
    expect(Object.keys(scopes)).toEqual([...SCOPES]);
    expect(doc.paths).toHaveProperty(["/oauth/token"]);
    expect(doc.paths).toHaveProperty(["/oauth/revoke"]);
    expect(doc.paths).toHaveProperty(["/.well-known/oauth-authorization-server"]);
  });

  it("registers clients dynamically only with valid metadata (RFC 7591; more in mcp.security)", async () => {
    const res = await exports.default.fetch(`${oauth.ORIGIN}/oauth/register`, { method: "POST", body: "{}" });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toBe("invalid_client_metadata");
  });
});

describe("authorization code flow", () => {
  it("signs in, shows the consent page, and redirects back with code, state and iss", async () => {
    const account = await oauth.createCustomer();
    const { clientId } = await oauth.registerClient({ name: "Cheese Tracker" });
    const { challenge } = await oauth.pkcePair();
    const browser = new oauth.Browser();
    const url = oauth.authorizeUrl(oauth.standardParams(clientId, challenge));

    const consent = await oauth.signInAndOpenConsent(browser, url, account);
    expect(consent).toContain("Allow Cheese Tracker to use your account?");
    // The name is the app author's own claim, and the page says so.
    expect(consent).toMatch(/“Cheese Tracker” is the name the app(&#39;|')s author gave it; nobody here checked it/);
    expect(consent).toContain("Browse the cheese catalog");
    expect(consent).toContain("Read the readiness catalog");
    expect(consent).toContain("app.example");
    expect(consent).toContain(account.email);

    const back = await oauth.decide(browser, consent, "approve");
    expect(back.origin + back.pathname).toBe(oauth.REDIRECT_URI);
    expect(back.searchParams.get("state")).toBe("xyz-state");
    expect(back.searchParams.get("iss")).toBe(oauth.ORIGIN);
    expect(back.searchParams.get("code")).toBeTruthy();
  });

  it("exchanges the code with the PKCE verifier, refreshes with rotation and revokes", async () => {
    const { clientId, exchange } = await oauth.authorizedCode();

    const exchanged = await oauth.tokenRequest(exchange);
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get("Cache-Control")).toBe("no-store");
    const tokens = await exchanged.json<oauth.TokenBody>();
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.access_token).toMatch(/^oat_[A-Za-z0-9_-]+$/);
    expect(tokens.refresh_token).toMatch(/^ort_[A-Za-z0-9_-]+$/);
    expect(tokens.scope.split(" ").sort()).toEqual(["read:catalog", "read:cheeses"]);

    const refreshed = await oauth.refreshRequest(clientId, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    const next = await refreshed.json<oauth.TokenBody>();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.access_token).not.toBe(tokens.access_token);

    // Rotation: the new refresh token works (reusing an old one ends the grant: oauth.tokens.security.test.ts).
    const third = await oauth.refreshRequest(clientId, next.refresh_token);
    expect(third.status).toBe(200);

    const latest = await third.json<oauth.TokenBody>();
    const revoked = await exports.default.fetch(`${oauth.ORIGIN}/oauth/revoke`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: latest.refresh_token, client_id: clientId }),
    });
    expect(revoked.status).toBe(200);
    const afterRevoke = await oauth.refreshRequest(clientId, latest.refresh_token);
    expect((await afterRevoke.json<oauth.TokenBody>()).error).toBe("invalid_grant");
  });

  it("works for a confidential client authenticating with client_secret_basic", async () => {
    const account = await oauth.createCustomer();
    const { clientId, clientSecret } = await oauth.registerConfidentialClient();
    const { verifier, challenge } = await oauth.pkcePair();
    const code = await oauth.authorizationCode({ clientId, challenge, account });
    const res = await oauth.tokenRequest(
      { grant_type: "authorization_code", code, redirect_uri: oauth.REDIRECT_URI, code_verifier: verifier },
      { Authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}` },
    );
    expect(res.status).toBe(200);
  });

  it("records a pending admin request and issues the token without admin until an operator approves", async () => {
    const account = await oauth.createCustomer();
    const { clientId, tokens } = await oauth.consentedTokens({ account, scope: "read:cheeses admin" });
    expect(tokens.scope).toBe("read:cheeses");

    const pending = await env.OAUTH_KV.get<{ status: string }>(`admin-approval:${account.id}:${clientId}`, "json");
    expect(pending?.status).toBe("pending");

    expect(
      await approveAdminRequest(env.OAUTH_KV, { accountId: account.id, clientId }, "operator@example.com", new Date()),
    ).toMatchObject({ ok: true });
    const refreshed = await (await oauth.refreshRequest(clientId, tokens.refresh_token)).json<oauth.TokenBody>();
    expect(refreshed.scope.split(" ").sort()).toEqual(["admin", "read:cheeses"]);
  });
});

describe("the consent page", () => {
  it("lists every requested scope in its words, and says what admin implies", async () => {
    const { consent } = await oauth.openConsent({ params: { scope: SCOPES.join(" ") } });
    const text = visibleText(consent);
    for (const scope of SCOPES) expect(text).toContain(`${SCOPE_WORDS[scope]} ${scope}`);
    expect(SCOPE_WORDS["write:orders"]).toMatch(/^Place cheese orders .* cancel them/);
    expect(SCOPE_WORDS.admin).toContain("everything every other permission allows");
  });

  it("shows only the scopes asked for", async () => {
    const { consent } = await oauth.openConsent({ params: { scope: "read:profile" } });
    const text = visibleText(consent);
    expect(text).toContain(`${SCOPE_WORDS["read:profile"]} read:profile`);
    expect(text).not.toContain(SCOPE_WORDS["write:profile"]);
    expect(text).not.toContain(SCOPE_WORDS["read:orders"]);
  });
});
