/**
 * The browser-facing pages: sign-in (/login, /logout), the OAuth authorization page
 * (/oauth/authorize), their stylesheet and the site icon, as one sub-app. Session and CSRF middleware are
 * attached per route, never app-wide, so API routes never touch cookies.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/context";
import { registerAuthorizeRoutes } from "./authorize";
import { registerFavicon } from "../../common/web/favicon";
import { registerLoginRoutes } from "./login";
import type { WebEnv } from "./session";
import { registerStylesheet } from "./styles";

export function registerWebRoutes(app: Hono<AppEnv>): void {
  const web = new Hono<WebEnv>();
  registerStylesheet(web);
  registerFavicon(web);
  registerLoginRoutes(web);
  registerAuthorizeRoutes(web);
  app.route("/", web as unknown as Hono<AppEnv>);
}
