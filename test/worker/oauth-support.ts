/**
 * Shared steps of the OAuth worker tests: a customer account (through the real account Durable
 * Objects), a registered client (through the library), PKCE, sign-in and consent in the
 * cookie-keeping browser of oauth-browser-support.ts, and the token endpoint's requests. The tests
 * import it whole (`import * as oauth`), the browser's helpers included.
 */
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { DIRECTORY_NAME } from "../../src/worker/auth/account-directory";
import { grantSubject } from "../../src/worker/auth/oauth/grant-guard";
import { oauthApi, registerClient as registerWithProvider } from "../../src/worker/auth/oauth/provider";
import { grantOf, openToken, type TokenKind } from "../../src/worker/auth/oauth/token-format";
import { freshIp } from "./auth-fixtures";
import { Browser, formField, locationOf, ORIGIN } from "./oauth-browser-support";

export { Browser, formField, ORIGIN } from "./oauth-browser-support";

export const REDIRECT_URI = "https://app.example/callback";
export const PASSWORD = "correct horse battery staple";

let accounts = 0;

export async function createCustomer(): Promise<{ id: string; email: string; password: string }> {
  const email = `customer${++accounts}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const entry = await env.ACCOUNT_DIRECTORY.getByName(DIRECTORY_NAME).register({ email, name: "Test Customer" });
  if (!entry.ok) throw new Error(entry.detail);
  const created = await env.ACCOUNTS.getByName(entry.value.id).initialize({
    id: entry.value.id,
    name: "Test Customer",
    email,
    roles: ["customer"],
    password: PASSWORD,
  });
  if (!created.ok) throw new Error(created.detail);
  return { id: entry.value.id, email, password: PASSWORD };
}

/** A client registered as `npm run clients -- create` does it; public unless `public: false`. */
export async function registerClient(options: { name?: string; redirectUris?: string[]; public?: boolean } = {}) {
  const client = await registerWithProvider(oauthApi(env, ORIGIN), {
    name: options.name ?? "Cheese Tracker",
    redirectUris: options.redirectUris ?? [REDIRECT_URI],
    isPublic: options.public !== false,
  });
  return { clientId: client.clientId, clientSecret: client.clientSecret };
}

/** A confidential client (`public: false`): its id and the secret it was given. */
export async function registerConfidentialClient(options: { name?: string; redirectUris?: string[] } = {}) {
  const { clientId, clientSecret } = await registerClient({ ...options, public: false });
  return { clientId, clientSecret: expectDefined(clientSecret, "a secret for a confidential client") };
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The S256 code_challenge of a verifier (RFC 7636 §4.2), whatever the verifier's syntax. */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  return { verifier, challenge: await s256Challenge(verifier) };
}

export function authorizeUrl(params: Record<string, string | undefined>): string {
  const url = new URL("/oauth/authorize", ORIGIN);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

export function standardParams(clientId: string, challenge: string, extra: Record<string, string | undefined> = {}) {
  return {
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "read:cheeses read:catalog",
    state: "xyz-state",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  };
}

/** The authorize URL of a new client (`client` as registerClient takes it): the standard parameters, changed by `extra`. */
export async function newClientAuthorizeUrl(
  extra: Record<string, string | undefined> = {},
  client: Parameters<typeof registerClient>[0] = {},
): Promise<string> {
  const { clientId } = await registerClient(client);
  const { challenge } = await pkcePair();
  return authorizeUrl(standardParams(clientId, challenge, extra));
}

/** RFC 9700 §4.11.2: an error of a request with a good client and redirect URI is shown, not redirected. */
export async function expectRefusedOnOurPage(url: string, error: string, description: RegExp) {
  const res = await new Browser().get(url);
  expect(res.status).toBe(400);
  expect(res.headers.get("Location")).toBeNull();
  const page = await res.text();
  expect(page).toContain(`(${error})`);
  expect(page).toMatch(description);
  expect(page).toContain("you were not sent back to the application");
}

/**
 * A new customer (unless `account` is given), signed in on the consent page of a new client (`client`
 * as registerClient takes it) in a fresh browser, for the standard parameters changed by `params`:
 * the browser, the authorize URL and the page's HTML.
 */
export async function openConsent(
  options: {
    account?: { email: string; password: string };
    client?: Parameters<typeof registerClient>[0];
    params?: Record<string, string | undefined>;
  } = {},
) {
  const account = options.account ?? (await createCustomer());
  const { clientId } = await registerClient(options.client);
  const { verifier, challenge } = await pkcePair();
  const browser = new Browser();
  const url = authorizeUrl(standardParams(clientId, challenge, options.params));
  const consent = await signInAndOpenConsent(browser, url, account);
  return { account, clientId, verifier, browser, url, consent };
}

/** GET authorize → sign in → consent page: returns the consent page's HTML. */
export async function signInAndOpenConsent(
  browser: Browser,
  url: string,
  account: { email: string; password: string },
): Promise<string> {
  const loginPage = await browser.get(url);
  expect(loginPage.status).toBe(200);
  const loginHtml = await loginPage.text();
  const signedIn = await browser.post(`${ORIGIN}/login`, {
    csrf_token: formField(loginHtml, "csrf_token"),
    continue: formField(loginHtml, "continue"),
    email: account.email,
    password: account.password,
  });
  expect(signedIn.status).toBe(303);
  expect(signedIn.headers.get("Location")).toBe(url.slice(ORIGIN.length));
  const consent = await browser.get(url);
  expect(consent.status).toBe(200);
  return consent.text();
}

/** Posts the consent page's form with `decision`, as clicking Allow (or Deny) does: the raw answer. */
export function submitConsent(browser: Browser, consentHtml: string, decision: "approve" | "deny"): Promise<Response> {
  return browser.post(`${ORIGIN}/oauth/authorize`, {
    csrf_token: formField(consentHtml, "csrf_token"),
    handle: formField(consentHtml, "handle"),
    decision,
  });
}

/** Clicks Allow (or Deny) on the consent page; returns the redirect the browser would follow. */
export async function decide(browser: Browser, consentHtml: string, decision: "approve" | "deny"): Promise<URL> {
  const response = await submitConsent(browser, consentHtml, decision);
  expect(response.status).toBe(303);
  return locationOf(response);
}

/** The whole browser part: returns the authorization code. `resource`: RFC 8707's, when given. */
export async function authorizationCode(options: {
  clientId: string;
  challenge: string;
  account: { email: string; password: string };
  scope?: string;
  resource?: string;
}) {
  const browser = new Browser();
  const extra = {
    ...(options.scope ? { scope: options.scope } : {}),
    ...(options.resource ? { resource: options.resource } : {}),
  };
  const url = authorizeUrl(standardParams(options.clientId, options.challenge, extra));
  const consent = await signInAndOpenConsent(browser, url, options.account);
  const back = await decide(browser, consent, "approve");
  const code = back.searchParams.get("code");
  if (!code) throw new Error(`no code in ${back}`);
  return code;
}

/**
 * A new customer approves a new client (for `scope`, when given): the code, and the
 * authorization_code token request that redeems it (RFC 6749 §4.1.3, with the PKCE verifier).
 */
export async function authorizedCode(options: { scope?: string } = {}) {
  const account = await createCustomer();
  const { clientId } = await registerClient();
  const { verifier, challenge } = await pkcePair();
  const code = await authorizationCode({ clientId, challenge, account, scope: options.scope });
  return { account, clientId, verifier, challenge, code, exchange: codeExchange(clientId, code, verifier) };
}

/** The fields of the authorization_code token request (RFC 6749 §4.1.3) of a public client, with its PKCE verifier. */
export const codeExchange = (clientId: string, code: string, verifier: string): Record<string, string> => ({
  grant_type: "authorization_code",
  code,
  redirect_uri: REDIRECT_URI,
  client_id: clientId,
  code_verifier: verifier,
});

/** POST /oauth/register (RFC 7591) with `metadata` as JSON, from a fresh client address unless `ip` is given. */
export function registerDynamically(metadata: Record<string, unknown>, ip = freshIp()): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
      body: JSON.stringify(metadata),
    }),
  );
}

/** A public client's refresh_token request (RFC 6749 §6); `extra` adds fields such as `scope`. */
export const refreshRequest = (clientId: string, refreshToken: string, extra: Record<string, string> = {}) =>
  tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, ...extra });

/** A GET of the API with an OAuth access token (or any bearer credential). */
export const bearerGet = (path: string, token: string) =>
  exports.default.fetch(new Request(new URL(path, ORIGIN), { headers: { Authorization: `Bearer ${token}` } }));

export async function tokenRequest(
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields),
    }),
  );
}

/** A revocation request (RFC 7009 §2.1) of `token`; `fields` authenticate the client (`client_id`, …). */
export function revokeRequest(token: string, fields: Record<string, string>): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/oauth/revoke`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, ...fields }),
    }),
  );
}

export interface TokenBody {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  error?: string;
  error_description?: string;
}

/**
 * `account` (a new customer unless given) consents to `scope` for a new public client, which
 * redeems the code: the client, the code and its verifier, and the tokens (the exchange answered
 * 200). `resource` (RFC 8707) goes in both the authorization and the token request.
 */
export async function consentedTokens(
  options: {
    account?: { email: string; password: string };
    scope?: string;
    clientName?: string;
    resource?: string;
  } = {},
) {
  const account = options.account ?? (await createCustomer());
  const { clientId } = await registerClient(options.clientName ? { name: options.clientName } : {});
  const { verifier, challenge } = await pkcePair();
  const { scope, resource } = options;
  const code = await authorizationCode({ clientId, challenge, account, scope, resource });
  const fields = codeExchange(clientId, code, verifier);
  if (resource) fields.resource = resource;
  const exchange = await tokenRequest(fields);
  expect(exchange.status).toBe(200);
  return { account, clientId, code, verifier, tokens: await exchange.json<TokenBody>() };
}

/** The library's own form of one of our sealed codes or tokens (token-format.ts), which must open. */
export async function openedToken(kind: TokenKind, sealed: string): Promise<string> {
  return expectDefined(await openToken(env, kind, sealed), `a ${kind} token that opens under OAUTH_TOKEN_KEY`);
}

/** The SubjectGuard of the grant an access token belongs to. */
export async function grantGuardOf(accessToken: string) {
  return env.SUBJECT_GUARDS.getByName(grantSubject(grantOf(await openedToken("access", accessToken)).grantId));
}
