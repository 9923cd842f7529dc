/**
 * A real browser (Debian chromium through playwright-core) clicks through sign-in and consent on
 * the real `wrangler dev` and lands on the client's loopback redirect URI with a code, its state
 * and the issuer. This is what proves the cookies (`__Host-` + Secure on http://127.0.0.1), the
 * CSRF Origin check and the CSP `form-action` (which also governs the redirect after the consent
 * post) work together in an actual browser.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthDeployment, type OAuthDeployment } from "./oauth-fixture";
import { launchChromium } from "./support/chromium";

let deployment: OAuthDeployment;
let browser: Browser;

beforeAll(async () => {
  deployment = await startOAuthDeployment();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await deployment?.stop();
});

function authorizeUrl(state: string): string {
  const url = new URL("/oauth/authorize", deployment.server.url);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: deployment.clientId,
    redirect_uri: deployment.callback.redirectUri,
    scope: "read:cheeses read:catalog",
    state,
    // Any valid S256 challenge: this test stops at the redirect, before the code exchange.
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
  }).toString();
  return url.toString();
}

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
