/**
 * The API reference and the error codes in a real browser (Debian chromium + playwright-core)
 * against the real `wrangler dev`: /docs renders every operation of /openapi.json with Swagger UI,
 * every request the page makes goes to the worker's own origin, and the CSP refuses nothing.
 * /docs/errors#<code> lands on that code's explanation. Screenshots: test-results/screenshots/.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, SCREENSHOTS_DIR } from "./dashboard-support";
import { launchChromium } from "./support/chromium";
import { startWranglerDev, type DevServer } from "./support/wrangler-dev";

let dir: string;
let server: DevServer;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "docs-e2e-"));
  mkdirSync(path.join(dir, "state"));
  server = await startWranglerDev({ persistTo: path.join(dir, "state") });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Opens `path`, recording every request URL and every console error (CSP refusals are reported there). */
async function open(
  path: string,
  run: (page: Page, seen: { requests: string[]; errors: string[] }) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const seen = { requests: [] as string[], errors: [] as string[] };
  page.on("request", (request) => seen.requests.push(request.url()));
  page.on("console", (message) => {
    // Chromium asks for /favicon.ico by itself (not a request of the page); the API has none: 404.
    if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico"))
      seen.errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => seen.errors.push(error.message));
  page.on("response", (response) => {
    if (response.status() >= 400) seen.errors.push(`${response.status()} ${response.url()}`);
  });
  try {
    await page.goto(new URL(path, server.url).toString());
    await run(page, seen);
  } finally {
    await context.close();
  }
}

describe("GET /docs in Chromium", () => {
  it("renders every operation, with requests to its own origin only and no CSP refusal", async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
      webhooks?: Record<string, Record<string, { operationId: string }>>;
    };
    // Swagger UI draws the OpenAPI 3.1 `webhooks` (the events we send) as operations too.
    const operations = [...Object.values(document.paths), ...Object.values(document.webhooks ?? {})].flatMap((item) =>
      Object.values(item),
    );
    await open("/docs", async (page, seen) => {
      await expect.poll(() => page.locator(".opblock").count(), { timeout: 30_000 }).toBe(operations.length);
      for (const path of ["/v1/catalog", "/v1/keys", "/oauth/token", "/docs/errors"]) {
        expect(await page.locator(`.opblock-summary-path[data-path="${path}"]`).count(), path).toBeGreaterThan(0);
      }
      // Expanding an operation shows its responses, including the shared ones (401, 405, 429).
      await page.locator("#operations-Catalog-getCatalog .opblock-summary").click();
      await expect
        .poll(() => page.locator("#operations-Catalog-getCatalog .response[data-code]").count())
        .toBeGreaterThan(8);
      mkdirSync(SCREENSHOTS_DIR, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS_DIR, "docs-reference.png"), fullPage: false });

      const origins = new Set(
        seen.requests.filter((url) => !url.startsWith("data:")).map((url) => new URL(url).origin),
      );
      expect([...origins]).toEqual([new URL(server.url).origin]);
      expect(seen.requests.map((url) => new URL(url).pathname)).toEqual(
        expect.arrayContaining([
          "/docs",
          "/docs/assets/swagger-ui-bundle.js",
          "/docs/assets/swagger-ui.css",
          "/docs/reference.js",
          "/openapi.json",
        ]),
      );
      expect(seen.errors).toEqual([]);
    });
  });
});

describe("GET /docs/errors in Chromium", () => {
  it("lands on the code a problem's type names", async () => {
    const problem = (await (await fetch(`${server.url}/v1/catalog`)).json()) as { type: string; code: string };
    expect(problem.code).toBe("unauthenticated");
    await open(new URL(problem.type).pathname + new URL(problem.type).hash, async (page, seen) => {
      const section = page.locator("section:target");
      expect(await section.getAttribute("id")).toBe("unauthenticated");
      expect(await section.locator("h2").textContent()).toContain("401 Authentication required");
      expect(await section.isVisible()).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS_DIR, "docs-errors.png") });
      expect(new Set(seen.requests.map((url) => new URL(url).origin))).toEqual(new Set([new URL(server.url).origin]));
      expect(seen.errors).toEqual([]);
    });
  });
});
