/**
 * The dashboard in a real browser (Debian chromium + playwright-core) against the real
 * `wrangler dev`: an account owner signs in, generates a key, copies it and uses it, runs into the
 * 3-key limit, revokes a key and sees it fail, signs out; an operator approves an admin request and
 * the app's next OAuth token carries `admin`; the customer edits the profile.
 *
 * Then the catalog explorer on the same deployment (the sample catalog): choosing facets gives the
 * counts and rows GET /v1/profiles gives for the same query; the back button returns to the
 * previous view; keyset paging; the profile page's curl fetches exactly the bytes whose SHA-256 it
 * shows (and its Copy button copies it) and its history; compare; What changed.
 *
 * Every page is screenshotted at desktop and phone width (the explorer's in dark mode too) into
 * test-results/screenshots/ and checked with axe-core (no serious or critical issue). Eight
 * sign-ins in all: SIGN_IN_LIMITER allows 10 a minute, and under `wrangler dev` every request
 * comes from the one address `local`.
 */
import { createHash } from "node:crypto";
import * as oauth from "oauth4webapi";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDashboardDeployment, type DashboardDeployment } from "./dashboard-fixture";
import { DESKTOP, inspect, PHONE, signIn } from "./dashboard-support";
import { provisionApiKey } from "./support/api-key";
import { launchChromium } from "./support/chromium";
import { expectDefined } from "../../src/common/expect";

let deployment: DashboardDeployment;
let browser: Browser;
/** A key of another account, for the explorer's comparisons with the API. */
let apiKey: string;

beforeAll(async () => {
  deployment = await startDashboardDeployment();
  apiKey = await provisionApiKey(deployment.server.url, deployment.operatorSecret);
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

// The catalog explorer.
const callCatalog = (path: string) => callApi(path, apiKey);
const FACETS =
  "grade,overall_outcome,stage.evaluate,stage.sign_up,stage.pay,stage.provision,stage.operate,primary_stage,funnel,freshness";

interface ApiList {
  count: number;
  data: { agent_readiness_profile_id: string }[];
  facets: Record<string, Record<string, number>>;
}

/**
 * The API's answer to the page's own query string (repeated fields as one list, an empty q left
 * out), its facets as the explorer counts them: a facet the query filters on by the query without
 * that filter (disjunctive facets).
 */
async function apiFor(page: Page): Promise<ApiList> {
  const shown = new URL(page.url()).searchParams;
  const asked = new URLSearchParams();
  for (const name of new Set(shown.keys())) {
    const values = shown.getAll(name).filter((value) => value !== "");
    if (values.length) asked.set(name, values.join(","));
  }
  const answer = await listOf(asked);
  for (const name of asked.keys()) {
    if (!FACETS.split(",").includes(name)) continue;
    const without = new URLSearchParams(asked);
    without.delete(name);
    const counts = (await listOf(without)).facets[name];
    if (counts && Object.keys(counts).length) answer.facets[name] = counts;
  }
  return answer;
}

async function listOf(asked: URLSearchParams): Promise<ApiList> {
  const query = new URLSearchParams(asked);
  query.set("facets", FACETS);
  const res = await callCatalog(`/v1/profiles?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ApiList;
}

/** What the page shows: its count, its rows and each facet value's count (0s left out, as the API does). */
async function shownOn(page: Page) {
  const count = Number(/^(\d+)/.exec((await page.locator("#match-count").textContent()) ?? "")?.[1]);
  const ids = await page
    .locator("tr[data-profile-id]")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-profile-id")));
  const facets = await page.locator("form.filters label.choice").evaluateAll((labels) => {
    const out: Record<string, Record<string, number>> = {};
    for (const label of labels) {
      const input = label.querySelector("input");
      const n = Number(label.querySelector(".facet-count")?.textContent);
      if (input && n > 0) out[input.name] = { ...out[input.name], [input.value]: n };
    }
    return out;
  });
  return { count, ids, facets };
}

async function expectSameAsApi(page: Page) {
  const shown = await shownOn(page);
  const answer = await apiFor(page);
  expect(shown.count).toBe(answer.count);
  expect(shown.ids).toEqual(answer.data.map((p) => p.agent_readiness_profile_id));
  expect(shown.facets).toEqual(answer.facets);
  return shown;
}

/**
 * At 375 px the results come first: the filters are folded into their panel above them, so the
 * first row is within the first screens, not after every filter (it was 3,400 px down). At 1280 px
 * the panel is open beside the results and the sort select shows its longest label whole.
 */
async function expectResultsFirstOnPhones(page: Page) {
  await page.setViewportSize(PHONE);
  const top = await page
    .locator("tr[data-profile-id]")
    .first()
    .evaluate((row) => row.getBoundingClientRect().top + window.scrollY);
  expect(top).toBeLessThan(1200);
  expect(await page.locator("form.filters").isVisible()).toBe(false);
  await page.setViewportSize(DESKTOP);
  expect(await page.locator("form.filters").isVisible()).toBe(true);
  const room = await page.locator("#sort").evaluate((select) => {
    const style = getComputedStyle(select);
    const context = document.createElement("canvas").getContext("2d");
    if (!context || !(select instanceof HTMLSelectElement)) return -1;
    context.font = style.font;
    const widest = Math.max(...[...select.options].map((option) => context.measureText(option.text).width));
    const inner = select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    return inner - widest;
  });
  // What is left beside the widest label holds the select's arrow (about 1rem).
  expect(room).toBeGreaterThan(16);
}

/** Ticks a facet value by its label (the script applies it at once) and waits for the new view. */
async function choose(page: Page, facet: string, value: string) {
  const box = page.locator(`form.filters input[name="${facet}"][value="${value}"]`);
  await Promise.all([page.waitForURL((u) => u.searchParams.getAll(facet).includes(value)), box.check()]);
  await page.waitForLoadState("load");
}

describe("the catalog explorer", () => {
  it("filters by facets as the API does, goes back, pages, shows a profile's bytes and compares", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: deployment.server.url });
    const page = await context.newPage();
    try {
      await signIn(page, deployment.server.url, deployment.customer);
      await Promise.all([
        page.waitForURL(/\/explore$/),
        page.getByRole("link", { name: "Explore the catalog" }).click(),
      ]);
      const whole = await expectSameAsApi(page);
      expect(whole.count).toBeGreaterThan(10);
      await inspect(page, "explore");
      await expectResultsFirstOnPhones(page);

      // Facets: each choice is a new URL with the API's counts and rows; Back returns to the last view.
      const grade = expectDefined(Object.keys(whole.facets.grade ?? {})[0], "a grade facet");
      await choose(page, "grade", grade);
      const byGrade = await expectSameAsApi(page);
      expect(byGrade.count).toBe(whole.facets.grade?.[grade]);
      const limited = expectDefined(Object.keys(byGrade.facets["stage.pay"] ?? {})[0], "a stage.pay facet");
      await choose(page, "stage.pay", limited);
      const both = await expectSameAsApi(page);
      expect(both.count).toBe(byGrade.facets["stage.pay"]?.[limited]);
      // The script gave focus back to the control that was changed.
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe("stage.pay");
      await inspect(page, "explore-filtered");
      await page.goBack();
      await page.waitForLoadState("load");
      expect(new URL(page.url()).searchParams.getAll("stage.pay")).toEqual([]);
      expect((await expectSameAsApi(page)).count).toBe(byGrade.count);

      // Keyset paging: the next page is the API's next page of the same query.
      await page.goto(url("/explore?limit=10&sort=-grade"));
      const first = await expectSameAsApi(page);
      await Promise.all([page.waitForURL(/cursor=/), page.getByRole("link", { name: "Next page" }).click()]);
      const second = await shownOn(page);
      const firstPage = await callCatalog("/v1/profiles?limit=10&sort=-grade");
      const next = ((await firstPage.json()) as { next: string }).next;
      const apiSecond = (await (await callCatalog(next)).json()) as ApiList;
      expect(second.ids).toEqual(apiSecond.data.map((p) => p.agent_readiness_profile_id));
      expect(second.count).toBe(first.count);

      // The profile page: its curl fetches exactly the bytes whose digest it shows.
      await Promise.all([
        page.waitForURL(/\/explore\/profiles\/arp_/),
        page.locator("tr[data-profile-id] a").first().click(),
      ]);
      await inspect(page, "explore-profile");
      expect(await page.locator("table.timeline tbody tr").count()).toBeGreaterThan(0);
      expect(await page.getByRole("img", { name: /Grade over time/ }).count()).toBe(1);
      const curl = await page.getByLabel("The request that fetches exactly these bytes").inputValue();
      const pinned = expectDefined(curl.split(" ").at(-1), "the URL the curl ends with");
      expect(pinned.startsWith(deployment.server.url.replace(/\/$/, ""))).toBe(true);
      const bytes = Buffer.from(await (await callCatalog(new URL(pinned).pathname)).arrayBuffer());
      const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
      expect(await page.locator("#profile-sha256").textContent()).toBe(digest);
      await page.getByRole("button", { name: "Copy" }).click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(curl);

      // Compare three profiles: one column each, the differing rows marked in words.
      await page.goto(url("/explore"));
      const boxes = page.locator('tr[data-profile-id] input[name="id"]');
      for (const index of [0, 1, 2]) await boxes.nth(index).check();
      await Promise.all([
        page.waitForURL(/\/explore\/compare\?/),
        page.getByRole("button", { name: "Compare selected" }).click(),
      ]);
      expect(await page.locator("table.compare thead th").count()).toBe(4);
      expect(await page.locator("#compare-summary").textContent()).toMatch(/rows differ|agree on every row/);
      await inspect(page, "explore-compare");

      // What changed, from the explorer's own link: the summary of the latest publish and its form.
      await page.goto(url("/explore"));
      await Promise.all([
        page.waitForURL(/\/explore\/changes$/),
        page.getByRole("link", { name: "What changed in the latest publish" }).click(),
      ]);
      expect(await page.locator("h1").textContent()).toBe("What changed");
      await inspect(page, "explore-changes");
    } finally {
      await context.close();
    }
  });

  it("works with the keyboard alone and without JavaScript", async () => {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await signIn(page, deployment.server.url, deployment.customer);
      await page.goto(url("/explore"));
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Skip to content");
      // Without script nothing applies on change: the form's button does, by keyboard.
      await page.locator('form.filters input[name="grade"]').first().focus();
      await page.keyboard.press("Space");
      await page.getByRole("button", { name: "Apply filters" }).focus();
      await Promise.all([page.waitForURL(/grade=/), page.keyboard.press("Enter")]);
      await expectSameAsApi(page);
    } finally {
      await context.close();
    }
  });
});
