/**
 * CORS for the bearer API (/v1/…, /v2/…): a browser app on any origin that holds an API key or an
 * OAuth access token (e.g. a public client that got one from /oauth/token) can call it. The
 * credential travels in `Authorization`, never in a cookie, so `Access-Control-Allow-Origin: *` is
 * safe and `Access-Control-Allow-Credentials` is never sent: a page cannot borrow a visitor's
 * session (Fetch standard, CORS protocol). The allow header is sent on every answer there, so a
 * shared cache holds one answer for CORS and plain requests alike; preflights are answered with
 * the path's `Allow` (allowed-methods.ts) as the allowed methods.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { editHeaders } from "./response-headers";

const CORS_PREFIXES = ["/v1/", "/v2/"] as const;

/** Request headers a client sends: the credential, ranges and conditionals, a JSON body. */
const CORS_ALLOWED_HEADERS = [
  "Authorization",
  "Content-Type",
  "Idempotency-Key",
  "If-Match",
  "If-None-Match",
  "If-Range",
  "Range",
];

/** Response headers a script may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = [
  "Accept-Ranges",
  "Catalog-Document-Range",
  "Catalog-Part",
  "Catalog-Release",
  "Content-Digest",
  "Content-Location",
  "Content-Range",
  "ETag",
  "Idempotency-Warning",
  "Idempotent-Replayed",
  "Link",
  "RateLimit",
  "RateLimit-Policy",
  "Repr-Digest",
  "Request-Id",
  "Retry-After",
  "WWW-Authenticate",
];

/** Chromium caps a preflight's lifetime at 2 hours. */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

export function bearerApiCors(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (!CORS_PREFIXES.some((prefix) => c.req.path.startsWith(prefix))) return;
    const preflight = c.req.method === "OPTIONS" && c.req.header("Access-Control-Request-Method") !== undefined;
    editHeaders(c, (headers) => {
      headers.set("Access-Control-Allow-Origin", "*");
      const allow = headers.get("Allow");
      if (preflight && c.res.status === 204 && allow) {
        headers.set("Access-Control-Allow-Methods", allow);
        headers.set("Access-Control-Allow-Headers", CORS_ALLOWED_HEADERS.join(", "));
        headers.set("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_SECONDS));
      } else {
        headers.set("Access-Control-Expose-Headers", CORS_EXPOSED_HEADERS.join(", "));
      }
    });
  };
}
