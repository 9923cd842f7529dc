/**
 * GET /: the front door. A small page (or, for `Accept: application/json` without `text/html`, the
 * same links as JSON) pointing to what a newcomer looks for: the API reference, the error codes,
 * the OpenAPI document and the dashboard. Everything else lives under its own path.
 */
import type { Context, Hono } from "hono";
import type { AppEnv } from "../http/context";
import { noQueryParameters } from "../http/strict-query";
import { Layout, renderPage } from "../web/page";
import type { WebEnv } from "../web/session";
import { DOCS_PATHS } from "./paths";

export const HOME_PATH = "/";

const LINKS = [
  { key: "reference", href: DOCS_PATHS.reference, label: "API reference", what: "every route, tried in the browser" },
  { key: "errors", href: DOCS_PATHS.errors, label: "Error codes", what: "every problem code and what to do" },
  { key: "openapi", href: DOCS_PATHS.document, label: "OpenAPI document", what: "OpenAPI 3.1, for code generators" },
  { key: "dashboard", href: "/dashboard", label: "Dashboard", what: "your API keys and authorized apps" },
  {
    key: "explore",
    href: "/explore",
    label: "Catalog explorer",
    what: "filter, chart and compare the profiles (signed in)",
  },
] as const;

function HomePage() {
  return (
    <Layout title="Readiness Catalog API">
      <h1>Readiness Catalog API</h1>
      <p>
        Agent readiness profiles of API products, with every byte covered by a published SHA-256 digest. Requests need
        an API key (<code>Authorization: Bearer sk_live_…</code>) or an OAuth access token.
      </p>
      <ul>
        {LINKS.map((link) => (
          <li>
            <a href={link.href}>{link.label}</a>: {link.what}
          </li>
        ))}
      </ul>
      <p class="muted">
        How to download and verify the catalog, look up profiles and retry: the consumer guide,{" "}
        <code>docs/consumer-guide.md</code> in the project's repository.
      </p>
    </Layout>
  );
}

const wantsJson = (accept = "") => accept.includes("application/json") && !accept.includes("text/html");

export function registerHomePage(app: Hono<AppEnv>): void {
  app.get(HOME_PATH, noQueryParameters(), (c) => {
    c.header("Vary", "Accept");
    if (wantsJson(c.req.header("Accept"))) {
      const origin = c.var.publicOrigin;
      c.header("Cache-Control", "public, max-age=300");
      return c.json({
        name: "Readiness Catalog API",
        links: Object.fromEntries(LINKS.map((link) => [link.key, `${origin}${link.href}`])),
      });
    }
    return renderPage(c as unknown as Context<WebEnv>, <HomePage />);
  });
}
