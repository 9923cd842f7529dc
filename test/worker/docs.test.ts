/**
 * The documentation the worker serves: /docs (Swagger UI from Workers Static Assets under a strict
 * CSP) and /docs/errors (every problem code, anchored), where every problem's `type` points.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PROBLEM_TYPES } from "../../src/worker/http/problem-types";
import { expectDefined } from "../../src/common/expect";
import { headerOf } from "./support/api";
import { newAccount } from "./auth-fixtures";
import { signIn } from "./dashboard-support";
import { expectProblem } from "./support/problems";

const ORIGIN = "https://api.test";
const get = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`${ORIGIN}${path}`, init));

describe("GET /docs", () => {
  it("is an HTML page that loads only same-origin files, under a CSP without inline script or eval", async () => {
    const res = await get("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = headerOf(res, "content-security-policy");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    const html = await res.text();
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) =>
      expectDefined(url, "a URL in the src or href"),
    );
    expect(urls).toEqual(
      expect.arrayContaining([
        "/docs/assets/swagger-ui-bundle.js",
        "/docs/assets/swagger-ui.css",
        "/docs/reference.js",
      ]),
    );
    for (const url of urls) expect(url.startsWith("/")).toBe(true);
    expect(html).not.toMatch(/<script>|<style>|style="/);
  });

  it("has the UI's files in the static assets (wrangler.toml [assets]), and its start script in the worker", async () => {
    // Workers Static Assets answer these before the worker runs; here the ASSETS binding reads them.
    for (const path of ["/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css"]) {
      const res = await env.ASSETS.fetch(`${ORIGIN}${path}`);
      expect(res.status, path).toBe(200);
      expect((await res.text()).length, path).toBeGreaterThan(10_000);
    }
    const start = await (await get("/docs/reference.js")).text();
    expect(start).toContain('url: "/openapi.json"');
    expect(start).toContain("validatorUrl: null");
  });

  it("an asset path with no file is the API's 404 problem", async () => {
    await expectProblem(await get("/docs/assets/nope.js"), 404, "not_found");
  });
});

describe("GET /docs/errors", () => {
  it("has one section per problem code, anchored by the code, with its status, title and explanation", async () => {
    const res = await get("/docs/errors");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await res.text();
    for (const [code, { status, title }] of Object.entries(PROBLEM_TYPES)) {
      const section = new RegExp(`<section id="${code}">([\\s\\S]*?)</section>`).exec(html)?.[1];
      expect(section, code).toBeDefined();
      expect(section).toContain(`${status} ${title}`.replaceAll("'", "&#39;"));
    }
  });
});

describe("a problem's type", () => {
  it("is /docs/errors#<code> on the origin the request reached, and that anchor exists", async () => {
    const res = await get("/v1/catalog");
    const body = await res.json<{ type: string; code: string }>();
    expect(body.type).toBe(`${ORIGIN}/docs/errors#${body.code}`);
    expect(await (await get("/docs/errors")).text()).toContain(`id="${body.code}"`);
  });

  it("names a configured origin, never the forged one, on unknown_host", async () => {
    const res = await exports.default.fetch(new Request("https://evil.example/v1/catalog"));
    const body = await res.json<{ type: string; code: string }>();
    expect(body.code).toBe("unknown_host");
    expect(body.type).toBe(`${ORIGIN}/docs/errors#unknown_host`);
  });
});

describe("GET / (the front door)", () => {
  const LINKS = ["/docs", "/docs/errors", "/openapi.json", "/dashboard"];

  it("is a small page linking the reference, the error codes, the OpenAPI document and the dashboard", async () => {
    const res = await get("/", { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(res.headers.get("Vary")).toMatch(/Accept/);
    const html = await res.text();
    for (const href of LINKS) expect(html).toContain(`href="${href}"`);
    expect(html).toContain("consumer guide");
  });

  it("answers JSON with the same links for Accept: application/json", async () => {
    const res = await get("/", { headers: { Accept: "application/json" } });
    expect(res.status).toBe(200);
    const body = await res.json<{ links: Record<string, string> }>();
    expect(Object.values(body.links)).toEqual(expect.arrayContaining(LINKS.map((path) => `${ORIGIN}${path}`)));
  });

  it("links /docs from the dashboard", async () => {
    const client = await signIn(await newAccount());
    expect(await (await client.get("/dashboard/keys")).text()).toContain('href="/docs"');
  });
});
