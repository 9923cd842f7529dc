/**
 * GET/POST /login and POST /logout. The sign-in form posts here from /login itself and from the
 * OAuth authorization page; on success the session is replaced by a signed-in one and the browser
 * continues (303) to `continue`, which must be a path on this origin (no open redirect).
 */
import type { Context, Hono } from "hono";
import { OAUTH_ENDPOINTS } from "../auth/oauth/provider";
import { signIn } from "../auth/sign-in";
import { clientAddressOf } from "../limits/ip-throttle";
import { csrfProtection, csrfTokenFor } from "./csrf";
import { LOGIN_PATH, LOGOUT_PATH, LoginPage, SignedInPage } from "./login-page";
import { renderPage } from "./page";
import { endSession, loadSession, startSignedInSession, type WebEnv } from "./session";

const MAX_EMAIL_LENGTH = 254; // RFC 5321 §4.5.3.1.3
const MAX_PASSWORD_LENGTH = 1024;

/** The pages a sign-in or sign-out may continue to: the sign-in page, the authorization page, the dashboard and the explorer. */
const CONTINUE_PATHS = [LOGIN_PATH, OAUTH_ENDPOINTS.authorize, "/dashboard", "/explore"];

const isServedPage = (pathname: string) =>
  CONTINUE_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`)) && !pathname.includes("//");

/**
 * `value` resolved against this origin, when the result is on this origin and a page that may be continued to;
 * otherwise `fallback`. Resolving first, as a browser does (it drops tabs and newlines, reads `\` as `/`, removes
 * dot segments), then checking what came out is what defeats `/.//host`, `/\host`, `https:host` and the like.
 */
export function continuePath(value: unknown, requestUrl: string, fallback = LOGIN_PATH): string {
  if (typeof value !== "string" || !value.startsWith("/")) return fallback;
  const origin = new URL(requestUrl).origin;
  const target = URL.parse(value, origin);
  if (!target || target.origin !== origin || target.username || target.password) return fallback;
  return isServedPage(target.pathname) ? target.pathname + target.search : fallback;
}

async function showLogin(c: Context<WebEnv>) {
  const continueTo = continuePath(c.req.query("continue"), c.req.url, "");
  const session = c.var.session;
  if (session) return continueTo ? c.redirect(continueTo, 303) : renderPage(c, <SignedInPage session={session} />);
  return renderPage(c, <LoginPage csrfToken={await csrfTokenFor(c)} continueTo={continueTo || LOGIN_PATH} />);
}

async function submitLogin(c: Context<WebEnv>) {
  const form = await c.req.parseBody();
  const continueTo = continuePath(form.continue, c.req.url);
  const email = typeof form.email === "string" ? form.email.trim() : "";
  const password = typeof form.password === "string" ? form.password : "";
  const again = async (status: 400 | 401 | 429, error: string) =>
    renderPage(c, <LoginPage csrfToken={await csrfTokenFor(c)} continueTo={continueTo} email={email} error={error} />, {
      status,
    });
  if (!email || !password) return again(400, "Enter both your email address and your password.");
  if (email.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD_LENGTH)
    return again(400, "That email address or password is too long.");

  const result = await signIn(c.env, email, password, clientAddressOf(c.req.raw, c.env.CLIENT_ADDRESS_SOURCE));
  if (!result.ok && result.reason === "locked") {
    c.header("Retry-After", String(result.retryAfterSeconds));
    return again(429, `Too many failed sign-ins. Wait ${result.retryAfterSeconds} seconds, then try again.`);
  }
  if (!result.ok) return again(401, "That email address and password do not match an account.");
  await startSignedInSession(c, result.account);
  return c.redirect(continueTo, 303);
}

async function submitLogout(c: Context<WebEnv>) {
  const form = await c.req.parseBody();
  await endSession(c);
  return c.redirect(continuePath(form.continue, c.req.url), 303);
}

export function registerLoginRoutes(app: Hono<WebEnv>): void {
  app.get(LOGIN_PATH, loadSession(), showLogin);
  app.post(LOGIN_PATH, loadSession(), csrfProtection(), submitLogin);
  app.post(LOGOUT_PATH, loadSession(), csrfProtection(), submitLogout);
}
