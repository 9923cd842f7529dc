/**
 * What every answer carries for the caches and proxies in front of the worker (docs/operations.md,
 * "Putting a CDN or proxy in front"), added once here rather than route by route:
 * - `Cache-Control` on every answer (`no-store` where a route set none, e.g. OPTIONS);
 * - `Vary: Authorization` on every answer of the bearer API, which depends on the credential
 *   (RFC 9110 §12.5.5), so a shared cache never serves one caller's answer to another;
 * - `Vary: Accept-Encoding` on every answer that the edge may compress: all but those that say
 *   `no-transform`, which are served identity-only (catalog/identity-only.ts).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";

/** Path prefixes of the bearer API: every answer there depends on the `Authorization` header. */
const BEARER_API_PREFIXES = ["/v1/", "/v2/", "/operator/"] as const;

const isBearerApiPath = (path: string) => BEARER_API_PREFIXES.some((prefix) => path.startsWith(prefix));

export function responseHeaders(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    editHeaders(c, (headers) => {
      if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
      if (isBearerApiPath(c.req.path)) appendVary(headers, "Authorization");
      if (!/\bno-transform\b/i.test(headers.get("Cache-Control") ?? "")) appendVary(headers, "Accept-Encoding");
    });
  };
}

/**
 * Applies `edit` (idempotent) to `c.res`'s headers; a response whose headers are immutable (a
 * redirect, a binding's fetch) is copied first.
 */
export function editHeaders(c: Context<AppEnv>, edit: (headers: Headers) => void): void {
  try {
    edit(c.res.headers);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    c.res = new Response(c.res.body, c.res);
    edit(c.res.headers);
  }
}

/** Adds `name` to `Vary` unless it is already listed (or `*`). */
function appendVary(headers: Headers, name: string): void {
  const listed = (headers.get("Vary") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (listed.some((entry) => entry === "*" || entry.toLowerCase() === name.toLowerCase())) return;
  headers.set("Vary", [...listed, name].join(", "));
}
