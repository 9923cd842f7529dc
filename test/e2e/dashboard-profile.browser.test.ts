/**
 * The dashboard's profile page in a real browser against the real `wrangler dev`: the customer
 * opens Profile from the navigation, gets an error by the field it concerns, fixes it and saves;
 * the page shows what was saved. Screenshotted and checked with axe-core like every page.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDashboardDeployment, type DashboardDeployment } from "./dashboard-fixture";
import { DESKTOP, inspect, signIn } from "./dashboard-support";
import { launchChromium } from "./support/chromium";

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

describe("the profile page", () => {
  it("edits the profile: an error by its field, then saved", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    try {
      await page.goto(new URL("/dashboard", deployment.server.url).toString());
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
    } finally {
      await context.close();
    }
  });
});
