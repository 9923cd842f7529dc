/**
 * The site icon: one small SVG (the catalog's check mark on the accent colour), linked from every
 * page (`<link rel="icon">`, src/worker/web/page.tsx) and also answered at /favicon.ico, which browsers
 * and tools ask for on their own, so no page load ends in a 404. It never changes: cached for a
 * year as immutable (RFC 8246).
 */
import type { Env as HonoEnv, Hono } from "hono";

export const FAVICON_PATH = "/favicon.svg";
const LEGACY_FAVICON_PATH = "/favicon.ico";

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#2f5bd3"/>
<path d="M9 16.5l4.5 4.5L23 11" fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
`;

export function registerFavicon<E extends HonoEnv>(app: Hono<E>): void {
  for (const path of [FAVICON_PATH, LEGACY_FAVICON_PATH]) {
    app.get(path, (c) =>
      c.body(FAVICON_SVG, 200, {
        "Content-Type": "image/svg+xml",
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
      }),
    );
  }
}
