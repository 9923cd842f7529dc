/**
 * The page the OAuth demo app of `npm start` shows when the browser comes back to its callback:
 * a titled page styled like the worker's pages (under its own CSP), in Chromium at desktop and
 * phone width and in dark mode, with axe-core finding nothing serious; dynamic text is escaped.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callbackPage } from "../../src/node/oauth/callback-page";
import { DEMO_CLIENT_NAME, startOAuthDemo, type OAuthDemo } from "../../src/node/oauth/demo";
import { freePort } from "../../src/node/local/wrangler-dev";
import { DESKTOP, inspect } from "./dashboard-support";
import { launchChromium } from "./support/chromium";

let browser: Browser;
let demo: OAuthDemo;
const logged: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  demo = await startOAuthDemo({
    baseUrl: "http://127.0.0.1:9",
    clientId: "demo-client",
    port: await freePort(),
    accountId: "acct_00000000000000000000",
    keysCliFlags: "",
    log: (text) => logged.push(text),
  });
});

afterAll(async () => {
  await demo?.stop();
  await browser?.close();
});

async function withPage(run: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ viewport: DESKTOP });
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

const fontOf = (page: Page) => page.evaluate(() => getComputedStyle(document.body).fontFamily);

describe("the OAuth demo's callback page", () => {
  it("a refused callback: a titled, styled page that says why, its text escaped", async () => {
    await withPage(async (page) => {
      const response = await page.goto(`${demo.redirectUri}?state=not-ours`);
      expect(response?.status()).toBe(400);
      expect(response?.headers()["content-type"]).toBe("text/html; charset=utf-8");
      expect(await page.title()).toBe(`Not signed in · ${DEMO_CLIENT_NAME}`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Not signed in");
      expect(await page.locator("main").textContent()).toContain(
        "The state parameter does not match: not our request, ignored.",
      );
      // The stylesheet is applied (its hash is in the CSP): the page is not the browser's monospace text.
      expect(await fontOf(page)).toContain("system-ui");
      await inspect(page, "oauth-demo-callback-refused");
    });
    expect(logged.join("")).toContain("The state parameter does not match");
  });

  it("a code from a flow by hand (not the demo's state): the page shows the code and the curl that exchanges it", async () => {
    await withPage(async (page) => {
      const query = new URLSearchParams({ code: "oac_AbC-123_x", state: "mine", iss: "http://127.0.0.1:9" });
      const response = await page.goto(`${demo.redirectUri}?${query}`);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe(`Code received · ${DEMO_CLIENT_NAME}`);
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).toContain("oac_AbC-123_x");
      expect(text).toContain("60 seconds");
      const command = await page.locator("pre code").textContent();
      expect(command).toBe(
        `curl -s http://127.0.0.1:9/oauth/token -d grant_type=authorization_code -d code=oac_AbC-123_x -d redirect_uri=${demo.redirectUri} -d client_id=demo-client -d code_verifier="$CODE_VERIFIER"`,
      );
      expect(await fontOf(page)).toContain("system-ui");
      await inspect(page, "oauth-demo-callback-by-hand");
    });
    expect(logged.join("")).toContain("-d code=oac_AbC-123_x");
    const injected = new URLSearchParams({ code: "oac_x; rm -rf ~", state: "mine", iss: "http://127.0.0.1:9" });
    const refused = await fetch(`${demo.redirectUri}?${injected}`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).not.toContain("curl");
  });

  it("a successful sign-in: the same page with what the app now holds", async () => {
    await withPage(async (page) => {
      const message = `Signed in: ${DEMO_CLIENT_NAME} now holds an access token for read:cheeses read:catalog.`;
      await page.setContent(callbackPage(DEMO_CLIENT_NAME, { ok: true, heading: "Signed in", message }));
      expect(await page.title()).toBe(`Signed in · ${DEMO_CLIENT_NAME}`);
      expect(await page.locator("main").textContent()).toContain(message);
      expect(await fontOf(page)).toContain("system-ui");
      await inspect(page, "oauth-demo-callback");
    });
  });

  it("escapes what it repeats from the query string", () => {
    const html = callbackPage(DEMO_CLIENT_NAME, {
      ok: false,
      heading: "Not signed in",
      message: 'access_denied: <script>alert("x")</script>',
    });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });
});
