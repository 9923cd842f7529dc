/**
 * The one stylesheet of the server-rendered pages, served from our origin so the CSP can stay
 * `style-src 'self'` (no inline styles).
 */
import type { Hono } from "hono";
import { STYLESHEET_PATH } from "./page";
import { WEB_STYLES } from "../../common/web/web-styles";
import type { WebEnv } from "./session";

export function registerStylesheet(app: Hono<WebEnv>): void {
  app.get(STYLESHEET_PATH, (c) =>
    c.body(WEB_STYLES, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=3600" }),
  );
}
