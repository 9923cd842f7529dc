/**
 * The catalog explorer in real Chromium against the real `wrangler dev` with the sample catalog:
 * choosing facets gives the counts and rows GET /v1/profiles gives for the same query; the back
 * button returns to the previous view; keyset paging; the profile page's curl fetches exactly the
 * bytes whose SHA-256 it shows (and its Copy button copies it) and its history; compare; What
 * changed. Every page is checked with
 * axe-core and screenshotted at 1280 px and 375 px and in dark mode (test-results/screenshots/).
 */
import { createHash } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDashboardDeployment, type DashboardDeployment } from "./dashboard-fixture";
import { DESKTOP, inspect, PHONE, signIn } from "./dashboard-support";
import { provisionApiKey } from "./support/api-key";
import { launchChromium } from "./support/chromium";
import { expectDefined } from "../../src/common/expect";

const FACETS =
  "grade,overall_outcome,stage.evaluate,stage.sign_up,stage.pay,stage.provision,stage.operate,primary_stage,funnel,freshness";

let deployment: DashboardDeployment;
let browser: Browser;
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
const callApi = (path: string) => fetch(url(path), { headers: { Authorization: `Bearer ${apiKey}` } });

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
  const res = await callApi(`/v1/profiles?${query}`);
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
      const firstPage = await callApi("/v1/profiles?limit=10&sort=-grade");
      const next = ((await firstPage.json()) as { next: string }).next;
      const apiSecond = (await (await callApi(next)).json()) as ApiList;
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
      const bytes = Buffer.from(await (await callApi(new URL(pinned).pathname)).arrayBuffer());
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
