/**
 * The dashboard in a real browser (Debian chromium + playwright-core) against the real
 * `wrangler dev`: an account owner signs in, generates a key, copies it and uses it, runs into the
 * 3-key limit, revokes a key and sees it fail, signs out; an operator approves an admin request and
 * the app's next OAuth token carries `admin`; the customer edits the profile. Every page is
 * screenshotted at desktop and phone width into test-results/screenshots/ and checked with
 * axe-core (no serious or critical issue).
 */
import * as oauth from "oauth4webapi";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDashboardDeployment, type DashboardDeployment } from "./dashboard-fixture";
import { DESKTOP, inspect, PHONE, signIn } from "./dashboard-support";
import { launchChromium } from "./support/chromium";
import { expectDefined } from "../../src/common/expect";

let deployment: DashboardDeployment;
let browser: Browser;

beforeAll(async () => {
  deployment = await startDashboardDeployment();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await deployment?.stop();
});

const url = (path: string) => new URL(path, deployment.server.url).toString();
const callApi = (path: string, credential: string) =>
  fetch(url(path), { headers: { Authorization: `Bearer ${credential}` } });

async function withPage(run: (page: Page, context: BrowserContext) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: deployment.server.url });
  const page = await context.newPage();
  try {
    await run(page, context);
  } finally {
    await context.close();
  }
}

async function generateKey(page: Page, name: string): Promise<void> {
  await page.getByLabel("Name (optional)").fill(name);
  await Promise.all([page.waitForLoadState("load"), page.getByRole("button", { name: "Generate key" }).click()]);
}

describe("an account owner manages API keys", () => {
  it("signs in, generates and copies a key, hits the limit, revokes, signs out", async () => {
    await withPage(async (page) => {
      await page.goto(url("/dashboard"));
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("Sign in to continue to your dashboard");
      await inspect(page, "sign-in");
      // The site icon: linked from the page and answered at /favicon.ico too, as an image the browser draws.
      expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/favicon.svg");
      for (const icon of ["/favicon.svg", "/favicon.ico"]) {
        const width = await page.evaluate(async (src) => {
          const image = new Image();
          image.src = src;
          await image.decode();
          return image.naturalWidth;
        }, icon);
        expect(width, icon).toBeGreaterThan(0);
      }

      await signIn(page, deployment.server.url, deployment.customer);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("API keys");
      expect(await page.locator(".count").textContent()).toBe("0 of 3 active");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Skip to content");
      await inspect(page, "keys-empty");

      // Generate: the secret is shown once, with a Copy button that the script reveals.
      await generateKey(page, "Production server");
      const secret = await page.getByLabel("Secret live key").inputValue();
      expect(secret).toMatch(/^sk_live_[0-9A-Za-z]{36}$/);
      await expect.poll(() => page.getByText("Copy it now: this is the only time it is shown.").isVisible()).toBe(true);
      await page.getByRole("button", { name: "Copy" }).click();
      await expect.poll(() => page.locator("#copy-status").textContent()).toBe("Copied to the clipboard.");
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(secret);
      await inspect(page, "key-created");
      // At phone width the example request keeps its two lines whole (the block scrolls instead).
      await page.setViewportSize(PHONE);
      const example = page.getByRole("region", { name: "Example request" }).locator("code");
      expect(
        await example.evaluate((code) => new Set([...code.getClientRects()].map((line) => Math.round(line.top))).size),
      ).toBe(2);
      expect(await example.textContent()).toMatch(
        /^curl -H "Authorization: Bearer \$CATALOG_API_KEY" \\\n {2}http:\/\/[^\s]+\/v1\/catalog$/,
      );
      await page.setViewportSize(DESKTOP);

      const catalog = await callApi("/v1/catalog", copied);
      expect(catalog.status).toBe(200);
      expect(catalog.headers.get("Catalog-Release")).toMatch(/^sha256:/);
      await catalog.body?.cancel();

      // Leaving the page: the secret is gone for good.
      await Promise.all([
        page.waitForURL("**/dashboard/keys"),
        page.getByRole("link", { name: "Hide the key" }).click(),
      ]);
      expect(await page.content()).not.toContain(secret);
      expect(await page.locator("main").textContent()).toContain(`sk_live_…${secret.slice(-4)}`);

      // Up to the limit, then the refusal with the spec's explanation.
      await generateKey(page, "Worker 2");
      await page.goto(url("/dashboard/keys"));
      await generateKey(page, "Worker 3");
      await page.goto(url("/dashboard/keys"));
      expect(await page.locator(".count").textContent()).toBe("3 of 3 active");
      await generateKey(page, "One too many");
      const alert = page.getByRole("alert");
      expect(await alert.textContent()).toContain("you already have 3 active keys, the most an account can have");
      expect(await alert.textContent()).toContain("see Rotating a key");
      expect(await page.getByRole("heading", { name: "Rotating a key" }).isVisible()).toBe(true);
      await inspect(page, "key-limit");

      // Revoke with confirmation: the key stops working at once.
      await page.goto(url("/dashboard/keys"));
      await page.getByRole("link", { name: `Revoke key “Production server” (sk_live_…${secret.slice(-4)})` }).click();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
        `Revoke key “Production server” (sk_live_…${secret.slice(-4)})?`,
      );
      await inspect(page, "key-revoke-confirm");
      await Promise.all([
        page.waitForURL("**/dashboard/keys?revoked=*"),
        page.getByRole("button", { name: "Revoke key" }).click(),
      ]);
      expect(await page.getByRole("status").first().textContent()).toContain(
        "is revoked. Requests with it now fail with 401.",
      );
      expect(await page.locator(".count").textContent()).toBe("2 of 3 active");
      await inspect(page, "keys-list");
      const refused = await callApi("/v1/catalog", secret);
      expect(refused.status).toBe(401);

      // Usage: the account's requests as a chart, totals and recent errors, readable at both widths.
      await page.goto(url("/dashboard/usage"));
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Usage");
      expect(await page.locator("svg[role=img] title").textContent()).toContain("Requests per hour");
      await inspect(page, "usage");

      // Sign out: the dashboard asks for a sign-in again.
      await Promise.all([page.waitForURL("**/dashboard"), page.getByRole("button", { name: "Sign out" }).click()]);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign in to continue to your dashboard");
      await page.goto(url("/dashboard/keys"));
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign in to continue to your dashboard");
    });
  });
});

describe("an operator approves an admin request", () => {
  it("the app's next token carries admin; the customer sees and can revoke the app", async () => {
    const issuer = new URL(deployment.server.url);
    const insecure = { [oauth.allowInsecureRequests]: true }; // wrangler dev is http://127.0.0.1
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
    );
    const client: oauth.Client = { client_id: deployment.clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();

    let tokens: oauth.TokenEndpointResponse | undefined;
    await withPage(async (page) => {
      const authorize = new URL(expectDefined(as.authorization_endpoint, "an authorization_endpoint in the metadata"));
      authorize.search = new URLSearchParams({
        response_type: "code",
        client_id: deployment.clientId,
        redirect_uri: deployment.callback.redirectUri,
        scope: "read:cheeses admin",
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      }).toString();
      await page.goto(authorize.toString());
      await page.getByLabel("Email").fill(deployment.customer.email);
      await page.getByLabel("Password").fill(deployment.customer.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForSelector("text=needs an operator's approval");
      await Promise.all([
        page.waitForURL(`${deployment.callback.redirectUri}?**`),
        page.getByRole("button", { name: "Allow" }).click(),
      ]);
      const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
      tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(
          as,
          client,
          oauth.None(),
          params,
          deployment.callback.redirectUri,
          verifier,
          insecure,
        ),
      );
      expect(tokens.scope?.split(" ")).not.toContain("admin");

      // The customer's dashboard lists the app, waiting for approval (same session as the consent page).
      await page.goto(url("/dashboard/apps"));
      expect(await page.locator("main").textContent()).toContain(deployment.appName);
      expect(await page.locator("main").textContent()).toContain("Pending Waiting for an operator's approval");
      await inspect(page, "apps");
    });

    await withPage(async (page) => {
      // An operator lands on the operator page.
      await signIn(page, deployment.server.url, deployment.operator, "/dashboard/operator");
      const row = page
        .getByRole("region", { name: "Admin requests" })
        .getByRole("row")
        .filter({ hasText: deployment.customer.email });
      expect(await row.textContent()).toContain(deployment.appName);
      await inspect(page, "operator");
      // The deployment's usage: chart, refusals, the busiest accounts and keys.
      await page.getByRole("link", { name: "Usage of this deployment" }).click();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Usage of this deployment");
      await inspect(page, "operator-usage");
      await page.goBack();
      // Approving asks first, on a page of its own.
      await row.getByRole("link", { name: /^Approve/ }).click();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
        `Approve admin for ${deployment.appName} acting for ${deployment.customer.email}?`,
      );
      await inspect(page, "operator-approve-confirm");
      await Promise.all([
        page.waitForURL("**/dashboard/operator?**"),
        page.getByRole("button", { name: "Approve admin" }).click(),
      ]);
      expect(await page.getByRole("status").first().textContent()).toContain(
        `Approved: ${deployment.appName} gets admin for ${deployment.customer.email}`,
      );
      expect(await page.locator("main").textContent()).toContain("No admin requests are waiting.");
      await inspect(page, "operator-approved");

      // Admin keys for the customer: approved after a confirmation, then withdrawn after another.
      const account = page
        .getByRole("region", { name: "Accounts" })
        .getByRole("row")
        .filter({ hasText: deployment.customer.email });
      await account.getByRole("link", { name: `Approve admin keys for ${deployment.customer.email}` }).click();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
        `Let ${deployment.customer.email} create admin keys?`,
      );
      await inspect(page, "operator-admin-keys-confirm");
      await Promise.all([
        page.waitForURL("**/dashboard/operator?**"),
        page.getByRole("button", { name: "Approve admin keys" }).click(),
      ]);
      await account.getByRole("link", { name: `Withdraw admin keys from ${deployment.customer.email}` }).click();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
        `Withdraw admin keys from ${deployment.customer.email}?`,
      );
      await inspect(page, "operator-withdraw-confirm");
      await Promise.all([
        page.waitForURL("**/dashboard/operator?**"),
        page.getByRole("button", { name: "Withdraw approval" }).click(),
      ]);
      expect(await page.getByRole("status").first().textContent()).toContain(
        `Withdrawn: ${deployment.customer.email} may no longer create API keys with the admin scope`,
      );
    });

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(
        as,
        client,
        oauth.None(),
        expectDefined(tokens?.refresh_token, "a refresh_token from the code exchange"),
        insecure,
      ),
    );
    expect(refreshed.scope?.split(" ")).toContain("admin");
    expect((await callApi("/v2/cheeses", refreshed.access_token)).status).toBe(200);

    // The customer revokes the app from the dashboard: its token fails at once.
    await withPage(async (page) => {
      await signIn(page, deployment.server.url, deployment.customer);
      await page.getByRole("link", { name: "Authorized apps" }).click();
      await page.getByRole("link", { name: `Revoke access of ${deployment.appName}` }).click();
      await inspect(page, "app-revoke-confirm");
      await Promise.all([
        page.waitForURL("**/dashboard/apps?**"),
        page.getByRole("button", { name: "Revoke access" }).click(),
      ]);
      expect(await page.getByRole("status").first().textContent()).toContain(
        `${deployment.appName} no longer has access to your account.`,
      );
    });
    expect((await callApi("/v2/cheeses", refreshed.access_token)).status).toBe(401);
  });
});

describe("the profile page", () => {
  it("edits the profile: an error by its field, then saved", async () => {
    await withPage(async (page) => {
      await page.goto(url("/dashboard"));
      await signIn(page, deployment.server.url, deployment.customer);
      await Promise.all([page.waitForURL("**/dashboard/profile"), page.getByRole("link", { name: "Profile" }).click()]);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Profile");
      expect(await page.getByLabel("Name").inputValue()).toBe("E2E Owner");
      await inspect(page, "profile");

      await page.getByLabel("Phone (optional)").fill("+41446681800");
      await page.getByLabel("Address line 1").fill("Bahnhofstrasse 1");
      await page.getByLabel("City").fill("Zürich");
      await page.getByLabel("Postal code").fill("8001");
      await page.getByLabel("Country").fill("XX");
      await Promise.all([page.waitForLoadState("load"), page.getByRole("button", { name: "Save profile" }).click()]);
      expect(await page.getByRole("alert").textContent()).toContain("Nothing was saved");
      const country = page.getByLabel("Country");
      expect(await country.getAttribute("aria-invalid")).toBe("true");
      expect(await page.locator("#profile-country-error").textContent()).toContain("ISO 3166-1 alpha-2");
      await inspect(page, "profile-error");

      await country.fill("ch");
      await Promise.all([
        page.waitForURL("**/dashboard/profile?saved=1"),
        page.getByRole("button", { name: "Save profile" }).click(),
      ]);
      expect(await page.getByRole("status").textContent()).toContain("Profile saved.");
      expect(await page.getByLabel("Country").inputValue()).toBe("CH");
      expect(await page.getByLabel("Phone (optional)").inputValue()).toBe("+41446681800");
      await inspect(page, "profile-saved");
    });
  });
});

describe("the watches page", () => {
  it("creates a watch from the explorer's query and one of profiles, readable at both widths", async () => {
    await withPage(async (page) => {
      await signIn(page, deployment.server.url, deployment.customer);
      await Promise.all([page.waitForURL("**/dashboard/watches"), page.getByRole("link", { name: "Watches" }).click()]);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Watches");
      expect(await page.locator("main").textContent()).toContain("No watch yet.");
      await inspect(page, "watches-empty");

      // The explorer links here with its query: one click to watch it. A long query stays on the page.
      const query =
        "grade=A,B&stage.pay=ready&stage.operate=ready,limited&tested_after=2026-01-01T00:00:00Z&q=payments";
      await page.goto(url(`/dashboard/watches?query=${encodeURIComponent(query)}`));
      expect(await page.getByLabel(/^Filter query string/).inputValue()).toBe(query);
      await page.getByLabel("Name", { exact: true }).fill("Payment APIs that can pay and operate");
      await Promise.all([page.waitForLoadState("load"), page.getByRole("button", { name: "Create watch" }).click()]);
      expect(await page.getByRole("status").first().textContent()).toContain(
        'Watch "Payment APIs that can pay and operate" created.',
      );
      await page.getByLabel("Name", { exact: true }).fill("Ours");
      await page.getByLabel(/^Or profiles/).fill("northwind-payments-api/checkout\narp_kfa3bdccf91c711393576bf510");
      await Promise.all([page.waitForLoadState("load"), page.getByRole("button", { name: "Create watch" }).click()]);
      const rows = page.getByRole("table", { name: "Your watches" }).getByRole("row");
      expect(await rows.count()).toBe(3);
      expect(await page.getByRole("button", { name: "Delete watch Ours" }).isVisible()).toBe(true);
      await inspect(page, "watches");
    });
  });
});
