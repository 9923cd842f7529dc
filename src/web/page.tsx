/**
 * The shell of every server-rendered page and the headers it is sent with. hono/jsx escapes every
 * interpolated string, so client-supplied names and URIs render as text, never as markup.
 *
 * No script runs on these pages: the CSP allows only our stylesheet, forbids framing
 * (`frame-ancestors 'none'`, plus X-Frame-Options for old browsers) and limits where forms may
 * post. `form-action` also governs the redirects that follow a form post, so the consent page adds
 * the client's redirect origin to it.
 */
import type { Context } from "hono";
import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import type { WebEnv } from "./session";

export const STYLESHEET_PATH = "/web/styles.css";

export function Layout(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{`${props.title} · Readiness Catalog`}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
      </head>
      <body>
        <header>Readiness Catalog</header>
        <main>{props.children}</main>
      </body>
    </html>
  );
}

export function contentSecurityPolicy(formActionOrigins: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    `form-action ${["'self'", ...formActionOrigins].join(" ")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** Sends a page with its security headers. */
export function renderPage(
  c: Context<WebEnv>,
  page: Child,
  options: { status?: 200 | 400 | 401 | 403 | 404 | 429; formActionOrigins?: readonly string[] } = {},
): Response | Promise<Response> {
  c.header("Content-Security-Policy", contentSecurityPolicy(options.formActionOrigins));
  c.header("X-Frame-Options", "DENY");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
  c.header("Cache-Control", "no-store");
  return c.html(<>{raw("<!doctype html>")}{page}</>, options.status ?? 200);
}
