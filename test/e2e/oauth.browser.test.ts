/**
 * The whole OAuth flow against the real `wrangler dev`, with oauth4webapi as a strict,
 * standards-checking client: discovery (RFC 8414), authorization with PKCE and state, sign-in and
 * consent (the HTML forms driven with fetch and cookies), the redirect checked for state and iss
 * (RFC 9207), code exchange, API calls, refresh with rotation, revocation.
 *
 * Then, on the same deployment, a real browser (Debian chromium through playwright-core) clicks
 * through sign-in and consent and lands on the client's loopback redirect URI with a code, its
 * state and the issuer. This is what proves the cookies (`__Host-` + Secure on http://127.0.0.1),
 * the CSRF Origin check and the CSP `form-action` (which also governs the redirect after the
 * consent post) work together in an actual browser.
 *
 * Five sign-ins in all. Under `wrangler dev` every request comes from the one address `local`, and
 * SIGN_IN_LIMITER allows 10 a minute per address: the admin request path (six more) has its own
 * deployment, oauth-admin-request.test.ts.
 */
import { request as httpRequest } from "node:http";
import * as oauth from "oauth4webapi";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAndAllow, startOAuthDeployment, type OAuthDeployment } from "./oauth-fixture";
import { launchChromium } from "./support/chromium";
import { expectDefined } from "../../src/common/expect";

let deployment: OAuthDeployment;
let browser: Browser;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
const clientAuth = oauth.None();
const insecure = { [oauth.allowInsecureRequests]: true }; // wrangler dev is http://127.0.0.1

beforeAll(async () => {
  deployment = await startOAuthDeployment();
  client = { client_id: deployment.clientId };
  const issuer = new URL(deployment.server.url);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await deployment?.stop();
});

/** The authorization request (RFC 6749 §4.1.1) with PKCE (RFC 7636 §4.3), to the discovered endpoint. */
function authorizationUrl(clientId: string, scope: string, codeChallenge: string, state: string): URL {
  const url = new URL(expectDefined(as.authorization_endpoint, "an authorization_endpoint in the metadata"));
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: deployment.callback.redirectUri,
    scope,
    state,
    code_challenge: codeChallenge,
    code_challenge_method: "S256",
  }).toString();
  return url;
}

/** Authorize → sign in → allow; returns the callback URL the browser lands on. */
async function authorize(
  scope: string,
  codeChallenge: string,
  state: string,
  app = { clientId: deployment.clientId, name: "E2E Cheese App" },
): Promise<URL> {
  const url = authorizationUrl(app.clientId, scope, codeChallenge, state);
  return signInAndAllow(url.toString(), deployment.account, app.name);
}

/** The code exchange (RFC 6749 §4.1.3) of the callback's `params`, with the PKCE verifier, by the public client or `app`. */
const exchangeCode = (
  params: URLSearchParams,
  codeVerifier: string,
  app: oauth.Client = client,
  auth: oauth.ClientAuth = clientAuth,
) =>
  oauth.authorizationCodeGrantRequest(as, app, auth, params, deployment.callback.redirectUri, codeVerifier, insecure);

/** The refresh token a token response must carry. */
const refreshTokenOf = (tokens: oauth.TokenEndpointResponse) => expectDefined(tokens.refresh_token, "a refresh_token");

describe("OAuth 2.0 with a strict client (oauth4webapi)", () => {
  it("discovers the server, authorizes, exchanges, calls the API, refreshes with rotation and revokes", async () => {
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.scopes_supported).toEqual(expect.arrayContaining(["read:catalog", "read:cheeses", "admin"]));

    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const landed = await authorize(
      "read:cheeses read:catalog",
      await oauth.calculatePKCECodeChallenge(codeVerifier),
      state,
    );
    expect(landed.origin + landed.pathname).toBe(deployment.callback.redirectUri);
    const params = oauth.validateAuthResponse(as, client, landed, state); // checks state and iss
    expect(params.get("code")).toMatch(/^oac_[A-Za-z0-9_-]+$/); // sealed: names no account or grant

    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await exchangeCode(params, codeVerifier));
    expect(tokens.access_token).toMatch(/^oat_/);
    expect(tokens.refresh_token).toMatch(/^ort_/);
    expect(tokens.scope?.split(" ").sort()).toEqual(["read:catalog", "read:cheeses"]);

    const api = (path: string, token: string) =>
      oauth.protectedResourceRequest(
        token,
        "GET",
        new URL(path, deployment.server.url),
        undefined,
        undefined,
        insecure,
      );
    const cheeses = await api("/v2/cheeses", tokens.access_token);
    expect(cheeses.status).toBe(200);
    const catalog = await api("/v1/catalog", tokens.access_token);
    expect(catalog.status).toBe(200);
    expect(((await catalog.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshTokenOf(tokens), insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await api("/v2/cheeses", refreshed.access_token)).status).toBe(200);

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, refreshed.access_token, insecure),
    );
    // A strict client surfaces the 401's Bearer challenge (RFC 6750 §3) as an error.
    for (const token of [refreshed.access_token, tokens.access_token]) {
      const refused = await api("/v2/cheeses", token).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
      const challenge = refused as oauth.WWWAuthenticateChallengeError;
      expect(challenge.status).toBe(401);
      expect(challenge.cause[0]?.parameters.error).toBe("invalid_token");
    }
  });

  // RFC 6749 §2.3.1: the metadata advertises both; many client libraries default to the form.
  for (const method of ["client_secret_post", "client_secret_basic"] as const) {
    it(`a confidential client registered with npm run clients authenticates with ${method}: exchange, refresh, revoke`, async () => {
      expect(as.token_endpoint_auth_methods_supported).toContain(method);
      const app = deployment.confidential;
      const confidential: oauth.Client = { client_id: app.clientId };
      const auth =
        method === "client_secret_post"
          ? oauth.ClientSecretPost(app.clientSecret)
          : oauth.ClientSecretBasic(app.clientSecret);
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const landed = await authorize("read:cheeses", await oauth.calculatePKCECodeChallenge(codeVerifier), state, app);
      const params = oauth.validateAuthResponse(as, confidential, landed, state);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        confidential,
        await exchangeCode(params, codeVerifier, confidential, auth),
      );
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        confidential,
        await oauth.refreshTokenGrantRequest(as, confidential, auth, refreshTokenOf(tokens), insecure),
      );
      await oauth.processRevocationResponse(
        await oauth.revocationRequest(as, confidential, auth, refreshTokenOf(refreshed), insecure),
      );
      const afterRevoke = oauth.refreshTokenGrantRequest(as, confidential, auth, refreshTokenOf(refreshed), insecure);
      await expect(oauth.processRefreshTokenResponse(as, confidential, await afterRevoke)).rejects.toMatchObject({
        error: "invalid_grant",
      });
    });
  }

  it("a replayed code is refused and the strict client sees invalid_grant", async () => {
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const params = oauth.validateAuthResponse(
      as,
      client,
      await authorize("read:cheeses", await oauth.calculatePKCECodeChallenge(codeVerifier), state),
      state,
    );
    await oauth.processAuthorizationCodeResponse(as, client, await exchangeCode(params, codeVerifier));
    await expect(
      oauth.processAuthorizationCodeResponse(as, client, await exchangeCode(params, codeVerifier)),
    ).rejects.toMatchObject({
      error: "invalid_grant",
    });
  });

  it("an unknown scope is shown on the server's page, never redirected (RFC 9700 §4.11.2)", async () => {
    const state = oauth.generateRandomState();
    const codeChallenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const url = authorizationUrl(deployment.clientId, "read:everything", codeChallenge, state);
    const res = await fetch(url, { redirect: "manual" });
    expect([res.status, res.headers.get("Location")]).toEqual([400, null]);
    expect(await res.text()).toContain("unknown scope read:everything");
  });
});

/** A GET with the Host header a client chose (fetch does not let one set it). */
function getWithHost(
  baseUrl: string,
  path: string,
  host: string,
): Promise<{ status: number; type?: string; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, headers: { Host: host } }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"], body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the issuer comes from configuration, not from the Host header", () => {
  it("Host: evil.example gets 400 unknown_host (problem+json) on the metadata, the authorize page and /openapi.json", async () => {
    for (const path of [
      "/.well-known/oauth-authorization-server",
      `/oauth/authorize?client_id=${deployment.clientId}`,
      "/openapi.json",
    ]) {
      const res = await getWithHost(deployment.server.url, path, "evil.example");
      expect(res.status, `${path}: ${res.body}`).toBe(400);
      expect(res.type).toBe("application/problem+json");
      expect((JSON.parse(res.body) as { code: string }).code).toBe("unknown_host");
    }
  });
});

// Any valid S256 challenge: the browser tests stop at the redirect, before the code exchange.
const authorizeUrl = (state: string) =>
  authorizationUrl(
    deployment.clientId,
    "read:cheeses read:catalog",
    "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    state,
  ).toString();

describe("sign-in and consent in a real browser", () => {
  it("lands on the redirect URI with code, state and iss", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(authorizeUrl("browser-state-1"));
      expect(await page.textContent("h1")).toBe("Sign in to continue to E2E Cheese App");
      await page.fill("#email", deployment.account.email);
      await page.fill("#password", deployment.account.password);
      await page.click("button[type=submit]");

      await page.waitForSelector("text=Allow E2E Cheese App to use your account?");
      expect(await page.textContent("main")).toContain("Browse the cheese catalog");
      expect(await page.textContent("main")).toContain("127.0.0.1");
      await Promise.all([
        page.waitForURL(`${deployment.callback.redirectUri}?**`),
        page.click("button[value=approve]"),
      ]);

      const landed = new URL(page.url());
      expect(landed.origin + landed.pathname).toBe(deployment.callback.redirectUri);
      expect(landed.searchParams.get("code")).toBeTruthy();
      expect(landed.searchParams.get("state")).toBe("browser-state-1");
      expect(landed.searchParams.get("iss")).toBe(deployment.server.url);
      // The callback server saw the same code (the browser may also ask it for /favicon.ico).
      const callbacks = deployment.callback.received.filter((url) => url.pathname === "/callback");
      expect(callbacks.at(-1)?.searchParams.get("code")).toBe(landed.searchParams.get("code"));
      expect(await page.textContent("body")).toContain("You can close this window");
    } finally {
      await context.close();
    }
  });

  it("Deny lands on the redirect URI with access_denied and no code", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(authorizeUrl("browser-state-2"));
      await page.fill("#email", deployment.account.email);
      await page.fill("#password", deployment.account.password);
      await page.click("button[type=submit]");
      await page.waitForSelector("button[value=deny]");
      await Promise.all([page.waitForURL(`${deployment.callback.redirectUri}?**`), page.click("button[value=deny]")]);
      const landed = new URL(page.url());
      expect(landed.searchParams.get("error")).toBe("access_denied");
      expect(landed.searchParams.get("state")).toBe("browser-state-2");
      expect(landed.searchParams.get("code")).toBeNull();
    } finally {
      await context.close();
    }
  });
});
