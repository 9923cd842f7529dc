/**
 * GET /docs: the interactive reference of /openapi.json (Swagger UI). The UI's files are Workers
 * Static Assets on our origin and its start-up script is ours (reference.js), so the page runs
 * under a CSP that allows only same-origin scripts, styles, requests and images (plus `data:`
 * images: Swagger UI's stylesheet draws its icons as data: URIs). No inline script, no eval, no
 * font or request to another origin; the online validator badge is turned off.
 */
import type { Context, Hono } from "hono";
import { raw } from "hono/html";
import type { AppEnv } from "../http/context";
import { DOCS_PATHS } from "./paths";
import { noQueryParameters } from "../http/strict-query";

export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const START_SCRIPT = `"use strict";
window.addEventListener("DOMContentLoaded", function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(DOCS_PATHS.document)},
    dom_id: "#reference",
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
`;

function ReferencePage() {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>API reference · Readiness Catalog</title>
        <link rel="stylesheet" href={DOCS_PATHS.uiStyles} />
        <script src={DOCS_PATHS.uiScript} defer></script>
        <script src={DOCS_PATHS.script} defer></script>
      </head>
      <body>
        <main id="reference">
          <noscript>
            The interactive reference needs JavaScript. The description itself is{" "}
            <a href={DOCS_PATHS.document}>{DOCS_PATHS.document}</a>
            {"; "}
            every error code is explained at <a href={DOCS_PATHS.errors}>{DOCS_PATHS.errors}</a>.
          </noscript>
        </main>
      </body>
    </html>
  );
}

export function registerReferencePage(app: Hono<AppEnv>): void {
  app.get(DOCS_PATHS.reference, noQueryParameters(), (c: Context<AppEnv>) => {
    c.header("Content-Security-Policy", REFERENCE_CSP);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "same-origin");
    c.header("Cache-Control", "public, max-age=300");
    return c.html(
      <>
        {raw("<!doctype html>")}
        <ReferencePage />
      </>,
    );
  });
  app.get(DOCS_PATHS.script, (c) =>
    c.body(START_SCRIPT, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    }),
  );
}
