/**
 * The shell of every server-rendered page and the headers it is sent with. hono/jsx escapes every
 * interpolated string, so client-supplied names and URIs render as text, never as markup.
 *
 * No script runs on these pages (the dashboard's copy button, a same-origin file, is the one
 * exception, sent with `allowScripts`): the CSP allows only our stylesheet, forbids framing
 * (`frame-ancestors 'none'`, plus X-Frame-Options for old browsers) and limits where forms may
 * post. `Referrer-Policy: same-origin` keeps the authorization URL's parameters from other sites.
 * `form-action` also governs the redirects that follow a form post, so the consent page adds
 * the client's redirect origin to it.
 */
import type { Context } from "hono";
import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { FAVICON_PATH } from "../../common/web/favicon";
import type { WebEnv } from "./session";

export const STYLESHEET_PATH = "/web/styles.css";

export interface LayoutChrome {
  /** Shown in the header after the product name (the dashboard's navigation). */
  nav?: Child;
  /** Same-origin stylesheets after ours. */
  stylesheets?: readonly string[];
  /** Same-origin scripts (deferred); the page must be sent with `allowScripts`. */
  scripts?: readonly string[];
}

export function Layout(props: { title: string; children: Child } & LayoutChrome) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Readiness Catalog`}</title>
        <link rel="icon" href={FAVICON_PATH} type="image/svg+xml" />
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        {(props.stylesheets ?? []).map((href) => (
          <link rel="stylesheet" href={href} />
        ))}
        {(props.scripts ?? []).map((src) => (
          <script src={src} defer></script>
        ))}
      </head>
      <body>
        <header>Readiness Catalog{props.nav}</header>
        <main id="main">{props.children}</main>
      </body>
    </html>
  );
}

export function contentSecurityPolicy(formActionOrigins: readonly string[] = [], allowScripts = false): string {
  return [
    "default-src 'none'",
    ...(allowScripts ? ["script-src 'self'"] : []),
    "style-src 'self'",
    "img-src 'self'",
    `form-action ${["'self'", ...formActionOrigins].join(" ")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** Sends a page with its security headers. */
export function renderPage<E extends WebEnv>(
  c: Context<E>,
  page: Child,
  options: {
    status?: 200 | 400 | 401 | 403 | 404 | 409 | 429 | 500 | 503;
    formActionOrigins?: readonly string[];
    allowScripts?: boolean;
  } = {},
): Response | Promise<Response> {
  c.header("Content-Security-Policy", contentSecurityPolicy(options.formActionOrigins, options.allowScripts));
  c.header("X-Frame-Options", "DENY");
  c.header("X-Content-Type-Options", "nosniff");
  // Not no-referrer: with it browsers send `Origin: null` on our own form posts (Fetch §3.1.6),
  // and the CSRF check needs the real origin. same-origin still sends nothing to other sites.
  c.header("Referrer-Policy", "same-origin");
  c.header("Cache-Control", "no-store");
  return c.html(
    <>
      {raw("<!doctype html>")}
      {page}
    </>,
    options.status ?? 200,
  );
}
