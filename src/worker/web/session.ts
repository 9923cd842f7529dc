/**
 * Browser sessions for the server-rendered pages (the OAuth consent page and the dashboard). A
 * session is stored only once there is something to keep: a successful sign-in. Anonymous page
 * views store nothing (their forms' CSRF token is a cookie double-submit, signed-out-csrf.ts).
 * The cookie holds 256 random bits; OAUTH_KV holds only their SHA-256, so a KV listing reveals no
 * usable session. Each session carries its own CSRF token (csrf.tsx). Signing in always starts a
 * new session id (no session fixation).
 *
 * Cookie: `__Host-session`, HttpOnly, Secure, SameSite=Lax, Path=/, 8 hours (cookies.ts).
 */
import { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { sha256Hex } from "../../common/sha256";
import type { AppEnv } from "../http/context";
import { readStoredJson } from "../http/stored-json";
import { cookieName, cookieOptions, randomToken, RANDOM_TOKEN } from "./cookies";

const WebSessionRecord = z.object({
  accountId: z.string().min(1),
  email: z.string(),
  csrfToken: z.string().min(1),
  /** Unix seconds. */
  expiresAt: z.number(),
});
export type WebSession = z.infer<typeof WebSessionRecord>;

export interface WebEnv {
  Bindings: Env;
  Variables: AppEnv["Variables"] & { session: WebSession | null; sessionId: string | null };
}

export const SIGNED_IN_SESSION_SECONDS = 8 * 3600;
const KEY_PREFIX = "web-session:";
const COOKIE = "session";

const storageKey = async (sessionId: string) => KEY_PREFIX + (await sha256Hex(sessionId));

export function sessionCookieName(requestUrl: string): string {
  return cookieName(COOKIE, requestUrl);
}

/** Loads the session named by the cookie (or none) into `c.var.session`. Reads only when a cookie came. */
export function loadSession<E extends WebEnv = WebEnv>(): MiddlewareHandler<E> {
  return async (c, next) => {
    c.set("session", null);
    c.set("sessionId", null);
    const sessionId = getCookie(c, sessionCookieName(c.req.url));
    if (sessionId && RANDOM_TOKEN.test(sessionId)) {
      // A corrupt record, or one without an account (an anonymous session of an earlier version): none.
      const session = await readStoredJson(
        c.env.OAUTH_KV,
        await storageKey(sessionId),
        WebSessionRecord,
        "web session",
      );
      if (session && session.expiresAt > Date.now() / 1000) {
        c.set("session", session);
        c.set("sessionId", sessionId);
      }
    }
    await next();
  };
}

/** Replaces whatever session there was with a signed-in one under a fresh id and CSRF token. */
export async function startSignedInSession<E extends WebEnv>(
  c: Context<E>,
  account: { id: string; email: string },
): Promise<WebSession> {
  await discardStoredSession(c);
  const sessionId = randomToken();
  const seconds = SIGNED_IN_SESSION_SECONDS;
  const stored: WebSession = {
    accountId: account.id,
    email: account.email,
    csrfToken: randomToken(),
    expiresAt: Math.floor(Date.now() / 1000) + seconds,
  };
  await c.env.OAUTH_KV.put(await storageKey(sessionId), JSON.stringify(stored), { expirationTtl: seconds });
  setCookie(c, sessionCookieName(c.req.url), sessionId, cookieOptions(c.req.url, seconds));
  c.set("session", stored);
  c.set("sessionId", sessionId);
  return stored;
}

/** Signs out: the stored session is deleted and the cookie cleared. */
export async function endSession<E extends WebEnv>(c: Context<E>): Promise<void> {
  await discardStoredSession(c);
  deleteCookie(c, sessionCookieName(c.req.url), cookieOptions(c.req.url));
  c.set("session", null);
  c.set("sessionId", null);
}

async function discardStoredSession<E extends WebEnv>(c: Context<E>): Promise<void> {
  const sessionId = c.var.sessionId;
  if (sessionId) await c.env.OAUTH_KV.delete(await storageKey(sessionId));
}
