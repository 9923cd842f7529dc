/**
 * One test (or group) per RFC 9700 point the contract names, plus the page protections.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { verifyAccessToken } from "../../src/worker/auth/oauth/access-token";
import { approveAdminRequest } from "../../src/worker/auth/oauth/admin-requests";
import * as oauth from "./oauth-support";

async function exchange(clientId: string, code: string, verifier: string | undefined) {
  const fields: Record<string, string> = {
    grant_type: "authorization_code",
    code,
    redirect_uri: oauth.REDIRECT_URI,
    client_id: clientId,
  };
  if (verifier !== undefined) fields.code_verifier = verifier;
  const res = await oauth.tokenRequest(fields);
  return { status: res.status, body: await res.json<oauth.TokenBody>() };
}

describe("redirect_uri must match a registered URI exactly; otherwise no redirect (RFC 9700 §4.1)", () => {
  const cases = {
    "another host": "https://evil.example/callback",
    "a trailing slash": `${oauth.REDIRECT_URI}/`,
    "another path": "https://app.example/callback/../steal",
    "an added query": `${oauth.REDIRECT_URI}?next=https://evil.example`,
    "http instead of https": "http://app.example/callback",
    "a subdomain": "https://evil.app.example/callback",
    "a loopback URI on another port": "http://127.0.0.1:9999/cb",
  };
  for (const [what, redirectUri] of Object.entries(cases)) {
    it(`refuses ${what} with an error page`, async () => {
      const registered = { redirectUris: [oauth.REDIRECT_URI, "http://127.0.0.1:8000/cb"] };
      const res = await new oauth.Browser().get(
        await oauth.newClientAuthorizeUrl({ redirect_uri: redirectUri }, registered),
      );
      expect(res.status).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
      expect(await res.text()).toContain("Redirect address not registered");
    });
  }
});

describe("authorization codes are one-time and short-lived", () => {
  afterEach(() => vi.useRealTimers());

  it("a replayed code is invalid_grant and revokes the tokens issued from it", async () => {
    const { clientId, verifier, code } = await oauth.authorizedCode();
    const first = await exchange(clientId, code, verifier);
    expect(first.status).toBe(200);
    expect(await verifyAccessToken(env, oauth.ORIGIN, first.body.access_token)).not.toBeNull();

    const replay = await exchange(clientId, code, verifier);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    expect(await verifyAccessToken(env, oauth.ORIGIN, first.body.access_token)).toBeNull();
    const refresh = await oauth.refreshRequest(clientId, first.body.refresh_token);
    expect((await refresh.json<oauth.TokenBody>()).error).toBe("invalid_grant");
  });

  it("a code older than 60 seconds is invalid_grant", async () => {
    const { clientId, verifier, code } = await oauth.authorizedCode();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    const late = await exchange(clientId, code, verifier);
    expect(late.body.error).toBe("invalid_grant");
    expect(late.body.error_description).toMatch(/expired/);
  });

  it("a code issued to one client cannot be redeemed by another", async () => {
    const { verifier, code } = await oauth.authorizedCode();
    const other = await oauth.registerClient();
    expect((await exchange(other.clientId, code, verifier)).body.error).toBe("invalid_grant");
  });
});

describe("PKCE (RFC 7636, RFC 9700 §2.1.1)", () => {
  it("a wrong code_verifier is invalid_grant", async () => {
    const { clientId, code } = await oauth.authorizedCode();
    const other = await oauth.pkcePair();
    expect((await exchange(clientId, code, other.verifier)).body.error).toBe("invalid_grant");
  });

  it("a missing code_verifier is refused", async () => {
    const { clientId, code } = await oauth.authorizedCode();
    const result = await exchange(clientId, code, undefined);
    expect(result.status).toBe(400);
    expect(result.body.error).toBe("invalid_request");
  });

  it("the plain method is refused before any consent", async () => {
    const url = await oauth.newClientAuthorizeUrl({ code_challenge: "a".repeat(43), code_challenge_method: "plain" });
    await oauth.expectRefusedOnOurPage(url, "invalid_request", /plain/);
  });
});

describe("no scope widening (RFC 6749 §6)", () => {
  it("a refresh asking for a scope the customer did not approve is invalid_scope", async () => {
    const { clientId, verifier, code } = await oauth.authorizedCode({ scope: "read:cheeses" });
    const tokens = (await exchange(clientId, code, verifier)).body;
    const wider = await oauth.refreshRequest(clientId, tokens.refresh_token, { scope: "read:cheeses write:orders" });
    expect(wider.status).toBe(400);
    const body = await wider.json<oauth.TokenBody>();
    expect(body.error).toBe("invalid_scope");
    expect(body.error_description).toContain("write:orders");
  });

  it("a refresh may narrow the scopes", async () => {
    const { clientId, verifier, code } = await oauth.authorizedCode();
    const tokens = (await exchange(clientId, code, verifier)).body;
    const narrower = await oauth.refreshRequest(clientId, tokens.refresh_token, { scope: "read:cheeses" });
    expect((await narrower.json<oauth.TokenBody>()).scope).toBe("read:cheeses");
  });
});

describe("admin is never granted automatically", () => {
  it("consenting to admin leaves it out of the token and records a pending approval", async () => {
    const { account, clientId, verifier, code } = await oauth.authorizedCode({ scope: "admin" });
    const tokens = (await exchange(clientId, code, verifier)).body;
    expect(tokens.scope).toBe("");
    const verified = await verifyAccessToken(env, oauth.ORIGIN, tokens.access_token);
    expect(verified?.scopes).toEqual([]);
    expect(await env.OAUTH_KV.get(`admin-approval:${account.id}:${clientId}`, "json")).toMatchObject({
      status: "pending",
    });
  });

  it("asking for admin in a code exchange or refresh before approval is invalid_scope (RFC 6749 §5.2), and uses nothing up", async () => {
    const { clientId, verifier, code } = await oauth.authorizedCode({ scope: "read:cheeses admin" });
    const exchangeFields = oauth.codeExchange(clientId, code, verifier);
    for (const scope of ["admin", "read:cheeses admin"]) {
      const asked = await oauth.tokenRequest({ ...exchangeFields, scope });
      expect(asked.status).toBe(400);
      const body = await asked.json<oauth.TokenBody>();
      expect([body.error, body.access_token]).toEqual(["invalid_scope", undefined]);
      expect(body.error_description).toMatch(/admin.*operator/);
    }
    const tokens = await (await oauth.tokenRequest(exchangeFields)).json<oauth.TokenBody>();
    expect(tokens.scope).toBe("read:cheeses");
    const refreshed = await oauth.refreshRequest(clientId, tokens.refresh_token, { scope: "admin" });
    expect(refreshed.status).toBe(400);
    expect((await refreshed.json<oauth.TokenBody>()).error).toBe("invalid_scope");
    const plain = await oauth.refreshRequest(clientId, tokens.refresh_token);
    expect((await plain.json<oauth.TokenBody>()).scope).toBe("read:cheeses");
  });

  it("once an operator approved admin, a refresh asking for it gets it", async () => {
    const { account, clientId, verifier, code } = await oauth.authorizedCode({ scope: "read:cheeses admin" });
    const tokens = (await exchange(clientId, code, verifier)).body;
    await approveAdminRequest(env.OAUTH_KV, { accountId: account.id, clientId }, "operator@example.com", new Date());
    const refreshed = await oauth.refreshRequest(clientId, tokens.refresh_token, { scope: "admin" });
    expect(refreshed.status).toBe(200);
    expect((await refreshed.json<oauth.TokenBody>()).scope).toBe("admin");
  });
});

describe("CSRF on the form posts: 403 without our Origin and the session's token", () => {
  async function loginForm() {
    const browser = new oauth.Browser();
    const html = await (await browser.get(`${oauth.ORIGIN}/login`)).text();
    return { browser, csrf: oauth.formField(html, "csrf_token") };
  }
  const account = { email: "nobody@example.com", password: "x" };

  it("no Origin header", async () => {
    const { browser, csrf } = await loginForm();
    const res = await browser.post(`${oauth.ORIGIN}/login`, { csrf_token: csrf, ...account }, null);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("no Origin header");
  });

  it("another site's Origin", async () => {
    const { browser, csrf } = await loginForm();
    const res = await browser.post(`${oauth.ORIGIN}/login`, { csrf_token: csrf, ...account }, "https://evil.example");
    expect(res.status).toBe(403);
  });

  it("a missing or foreign token", async () => {
    const { browser } = await loginForm();
    expect((await browser.post(`${oauth.ORIGIN}/login`, { ...account })).status).toBe(403);
    const other = await loginForm();
    expect((await browser.post(`${oauth.ORIGIN}/login`, { csrf_token: other.csrf, ...account })).status).toBe(403);
  });

  it("the consent decision, posted cross-site, is refused and issues no code", async () => {
    const { browser, consent } = await oauth.openConsent();
    const fields = {
      csrf_token: oauth.formField(consent, "csrf_token"),
      handle: oauth.formField(consent, "handle"),
      decision: "approve",
    };
    const forged = await browser.post(`${oauth.ORIGIN}/oauth/authorize`, fields, "https://evil.example");
    expect(forged.status).toBe(403);
    expect(forged.headers.get("Location")).toBeNull();
    const noToken = await browser.post(`${oauth.ORIGIN}/oauth/authorize`, {
      handle: fields.handle,
      decision: "approve",
    });
    expect(noToken.status).toBe(403);
  });
});

describe("the pages themselves", () => {
  it("render a client name with markup as text", async () => {
    const customer = await oauth.createCustomer();
    const name = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    const { clientId } = await oauth.registerClient({ name });
    const { challenge } = await oauth.pkcePair();
    const browser = new oauth.Browser();
    const url = oauth.authorizeUrl(oauth.standardParams(clientId, challenge));
    const login = await (await browser.get(url)).text();
    const consent = await oauth.signInAndOpenConsent(browser, url, customer);
    for (const html of [login, consent]) {
      expect(html).not.toContain("<script>");
      expect(html).not.toContain("<img");
      expect(html).toContain("&lt;script&gt;");
    }
  });

  it("cannot be framed, allow no script and send forms only to us and the client's redirect origin", async () => {
    const customer = await oauth.createCustomer();
    const { clientId } = await oauth.registerClient();
    const { challenge } = await oauth.pkcePair();
    const browser = new oauth.Browser();
    const url = oauth.authorizeUrl(oauth.standardParams(clientId, challenge));
    const login = await browser.get(url);
    await login.text();
    await oauth.signInAndOpenConsent(browser, url, customer);
    const consent = await browser.get(url);
    for (const res of [login, consent]) {
      const csp = res.headers.get("Content-Security-Policy");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(res.headers.get("X-Frame-Options")).toBe("DENY");
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      // Not no-referrer: browsers would then post our forms with `Origin: null` (Fetch §3.1.6).
      expect(res.headers.get("Referrer-Policy")).toBe("same-origin");
    }
    expect(consent.headers.get("Content-Security-Policy")).toContain("form-action 'self' https://app.example");
    expect(login.headers.get("Content-Security-Policy")).toContain("form-action 'self';");
  });

  it("use __Host- cookies, HttpOnly, Secure, SameSite=Lax: a CSRF cookie before sign-in, the session from sign-in on", async () => {
    const customer = await oauth.createCustomer();
    const browser = new oauth.Browser();
    const page = await browser.get(`${oauth.ORIGIN}/login`);
    expect(browser.cookies.has("__Host-session")).toBe(false);
    const signedIn = await browser.post(`${oauth.ORIGIN}/login`, {
      csrf_token: oauth.formField(await page.text(), "csrf_token"),
      email: customer.email,
      password: customer.password,
    });
    expect(signedIn.status).toBe(303);
    const csrf = page.headers.getSetCookie().find((line) => line.startsWith("__Host-csrf="));
    const session = signedIn.headers.getSetCookie().find((line) => line.startsWith("__Host-session="));
    for (const cookie of [csrf, session]) {
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\//);
    }
  });

  // The usual open-redirect bypasses: each must land on the default page, never another origin.
  const OFF_SITE = [
    "//evil.example/x",
    "https://evil.example/",
    "/\\evil.example",
    "/.//evil.example/x",
    "/%2F%2Fevil.example",
    "\\/evil.example",
    "https:evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "https://localhost@evil.example/",
    "//user:pass@evil.example/",
    "/dashboard/..//evil.example",
    "/nowhere",
  ];

  /** A sign-in from a fresh browser whose form says to continue to `target`. */
  async function signInContinuingTo(customer: { email: string; password: string }, target: string) {
    const browser = new oauth.Browser();
    const page = await (await browser.get(`${oauth.ORIGIN}/login`)).text();
    return browser.post(`${oauth.ORIGIN}/login`, {
      csrf_token: oauth.formField(page, "csrf_token"),
      continue: target,
      email: customer.email,
      password: customer.password,
    });
  }

  it("never continue to another origin, or to a page it does not serve, after sign-in", async () => {
    const customer = await oauth.createCustomer();
    for (const target of OFF_SITE) {
      const res = await signInContinuingTo(customer, target);
      expect(res.status, target).toBe(303);
      expect(res.headers.get("Location"), target).toBe("/login");
    }
  });

  it("never continue off-site from a signed-in /login or from /logout", async () => {
    const customer = await oauth.createCustomer();
    const browser = new oauth.Browser();
    const page = await (await browser.get(`${oauth.ORIGIN}/login`)).text();
    await browser.post(`${oauth.ORIGIN}/login`, {
      csrf_token: oauth.formField(page, "csrf_token"),
      email: customer.email,
      password: customer.password,
    });
    for (const target of OFF_SITE) {
      const res = await browser.get(`${oauth.ORIGIN}/login?${new URLSearchParams({ continue: target })}`);
      expect(res.status, target).toBe(200);
    }
    for (const target of OFF_SITE) {
      const form = await (await browser.get(`${oauth.ORIGIN}/login`)).text();
      const out = await browser.post(`${oauth.ORIGIN}/logout`, {
        csrf_token: oauth.formField(form, "csrf_token"),
        continue: target,
      });
      expect(out.status, target).toBe(303);
      expect(out.headers.get("Location"), target).toBe("/login");
    }
  });

  it("continues to the pages it serves, with their query", async () => {
    const customer = await oauth.createCustomer();
    for (const target of ["/dashboard", "/dashboard/apps?revoked_client=x", "/oauth/authorize?client_id=x"]) {
      const res = await signInContinuingTo(customer, target);
      expect(res.headers.get("Location"), target).toBe(target);
    }
  });
});

it("a denied request issues no code even when replayed as an approval", async () => {
  const { browser, consent } = await oauth.openConsent();
  await oauth.decide(browser, consent, "deny");
  const replay = await oauth.submitConsent(browser, consent, "approve");
  expect(replay.status).toBe(400);
});
