/**
 * Who sees the explorer: signed out, every page is a 303 to the sign-in page whose `continue`
 * brings the reader back to the same view (and only to a page of this site); the pages carry the
 * dashboard's strict headers; no method but GET (and HEAD) changes or shows anything.
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount } from "./auth-fixtures";
import { DashboardClient, signIn, submitSignIn } from "./dashboard-support";
import { formField } from "./oauth-support";
import { headerOf } from "./support/api";
import { publish, testRelease } from "./support/releases";

beforeAll(async () => {
  await publish(testRelease("base"));
}, 60_000);

describe("signed out", () => {
  for (const path of ["/explore", "/explore?grade=A&q=pay", "/explore/compare?id=a&id=b", "/explore/profiles/x"]) {
    it(`GET ${path} goes to the sign-in page and back`, async () => {
      const client = new DashboardClient();
      const res = await client.get(path);
      expect(res.status).toBe(303);
      const location = new URL(headerOf(res, "Location"), "https://api.test");
      expect(location.pathname).toBe("/login");
      expect(location.searchParams.get("continue")).toBe(path);
      // The sign-in page keeps that place, and signing in continues to it.
      const login = await client.get(location.pathname + location.search);
      const html = await login.text();
      expect(formField(html, "continue")).toBe(path);
      const signedIn = await submitSignIn(client, html, await newAccount());
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get("Location")).toBe(path);
    });
  }

  it("a sign-in never continues off this site or to a page that is not served", async () => {
    for (const evil of [
      "//evil.example/explore",
      "/\\evil.example",
      "https://evil.example/explore",
      "/explorer-evil",
    ]) {
      const client = new DashboardClient();
      const html = await (await client.get(`/login?continue=${encodeURIComponent(evil)}`)).text();
      expect(formField(html, "continue"), evil).toBe("/login");
    }
  });

  it("a signed-out POST changes nothing and shows nothing", async () => {
    const res = await exports.default.fetch(new Request("https://api.test/explore", { method: "POST" }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await res.text()).not.toContain("profiles match");
  });
});

describe("signed in", () => {
  it("pages carry the dashboard's CSP and no-store; the assets are same-origin", async () => {
    const client = await signIn(await newAccount());
    const res = await client.get("/explore");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Security-Policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*src="\/)/); // no inline script
    expect(html).not.toMatch(/ style="/); // no inline style
    for (const asset of ["/explore/styles.css", "/explore/explore.js"]) {
      expect(html).toContain(asset);
      const served = await client.get(asset);
      expect(served.status, asset).toBe(200);
    }
  });

  it("a query string is rendered as text, never as markup", async () => {
    const client = await signIn(await newAccount());
    const res = await client.get("/explore?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E&product=%3Cb%3E");
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<b>");
  });
});
