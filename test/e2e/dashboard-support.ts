/**
 * What the dashboard's browser tests share: Debian chromium through playwright-core, an operator
 * account on the running deployment, and `inspect()`, which screenshots a page at desktop and
 * phone width into test-results/screenshots/ (gitignored) and runs axe-core on it at both widths.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { REPO_ROOT } from "./support/wrangler-dev";

export const SCREENSHOTS_DIR = path.join(REPO_ROOT, "test-results/screenshots");
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };

/** Signs in on the form the dashboard shows a signed-out visitor; lands on `landing` (a customer's: the keys page). */
export async function signIn(
  page: Page,
  baseUrl: string,
  account: { email: string; password: string },
  landing = "/dashboard/keys",
): Promise<void> {
  await page.goto(new URL("/dashboard", baseUrl).toString());
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForLoadState("load");
  expect(new URL(page.url()).pathname, (await page.locator("main").textContent()) ?? "").toBe(landing);
}

const AXE_SOURCE = readFileSync(path.join(REPO_ROOT, "node_modules/axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules). */
async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not govern;
  // once per document (inspect() runs it at each width and in dark mode on the same one).
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}

/**
 * Screenshots the page at desktop and phone width (`<name>-desktop.png`, `<name>-phone.png`) and
 * in dark mode (`<name>-dark.png`), asserts no serious or critical axe violation and no sideways
 * scrolling in each, and leaves the page light, at desktop width.
 */
export async function inspect(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const variants = [
    { label: "desktop", size: DESKTOP, colorScheme: "light" },
    { label: "phone", size: PHONE, colorScheme: "light" },
    { label: "dark", size: DESKTOP, colorScheme: "dark" },
  ] as const;
  for (const { label, size, colorScheme } of variants) {
    await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}-${label}.png`), fullPage: true });
    expect(await seriousViolations(page), `${name} (${label})`).toEqual([]);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${name} scrolls sideways (${label})`).toBeLessThanOrEqual(0);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(DESKTOP);
}
