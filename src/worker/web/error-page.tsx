/**
 * The error page of the browser-facing routes: shown instead of a redirect whenever redirecting
 * would be unsafe (unknown client, unregistered redirect_uri) and for refused form posts (CSRF).
 */
import type { Context } from "hono";
import { Layout, renderPage } from "./page";
import type { WebEnv } from "./session";

export function renderErrorPage<E extends WebEnv>(
  c: Context<E>,
  status: 400 | 401 | 403 | 404 | 429 | 503,
  title: string,
  detail: string,
): Response | Promise<Response> {
  return renderPage(
    c,
    <Layout title={title}>
      <h1>{title}</h1>
      <p class="error">{detail}</p>
      <p class="muted">Request id: {c.get("requestId") ?? "unknown"}</p>
    </Layout>,
    { status },
  );
}
