/**
 * Browser sessions for the server-rendered pages (the OAuth login + consent page now, the
 * dashboard later). The cookie holds 256 random bits; OAUTH_KV holds only their SHA-256, so a
 * KV listing reveals no usable session. Every session, signed in or not, carries its own CSRF
 * token (see csrf.ts). Signing in always starts a new session id (no session fixation).
 *
 * Cookie: `__Host-session`, HttpOnly, Secure, SameSite=Lax, Path=/ (RFC 6265bis §4.1.3.2) on
 * https and on loopback hosts, which browsers treat as secure contexts, so `wrangler dev` on
 * http://localhost works. On plain http to any other host (a LAN address in development) the
 * browser would drop a Secure cookie, so it is `session` without Secure there.
 */
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { isLoopbackHost } from "../auth/oauth/redirect-uri";
import { sha256Hex } from "../catalog/digest";
import type { AppEnv } from "../http/context";

export interface WebSession {
  accountId: string | null;
  email: string | null;
  csrfToken: string;
  /** Unix seconds. */
  expiresAt: number;
}

export interface WebEnv {
  Bindings: Env;
  Variables: AppEnv["Variables"] & { session: WebSession | null; sessionId: string | null };
}

export const SIGNED_IN_SESSION_SECONDS = 8 * 3600;
export const ANONYMOUS_SESSION_SECONDS = 3600;
const KEY_PREFIX = "web-session:";

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

const storageKey = async (sessionId: string) => KEY_PREFIX + (await sha256Hex(sessionId));

function isSecureContext(url: URL): boolean {
  return url.protocol === "https:" || isLoopbackHost(url.hostname);
}

export function sessionCookieName(requestUrl: string): string {
  return isSecureContext(new URL(requestUrl)) ? "__Host-session" : "session";
}

/** Loads the session named by the cookie (or none) into `c.var.session`. */
export function loadSession<E extends WebEnv = WebEnv>(): MiddlewareHandler<E> {
  return async (c, next) => {
    c.set("session", null);
    c.set("sessionId", null);
    const sessionId = getCookie(c, sessionCookieName(c.req.url));
    if (sessionId && /^[A-Za-z0-9_-]{43}$/.test(sessionId)) {
      const session = await c.env.OAUTH_KV.get<WebSession>(await storageKey(sessionId), "json");
      if (session && session.expiresAt > Date.now() / 1000) {
        c.set("session", session);
        c.set("sessionId", sessionId);
      }
    }
    await next();
  };
}

async function writeSession<E extends WebEnv>(c: Context<E>, session: Omit<WebSession, "csrfToken" | "expiresAt">, seconds: number): Promise<WebSession> {
  const sessionId = randomToken();
  const stored: WebSession = { ...session, csrfToken: randomToken(), expiresAt: Math.floor(Date.now() / 1000) + seconds };
  await c.env.OAUTH_KV.put(await storageKey(sessionId), JSON.stringify(stored), { expirationTtl: seconds });
  const secure = isSecureContext(new URL(c.req.url));
  setCookie(c, sessionCookieName(c.req.url), sessionId, { path: "/", httpOnly: true, secure, sameSite: "Lax", maxAge: seconds });
  c.set("session", stored);
  c.set("sessionId", sessionId);
  return stored;
}

/** The current session, or a new anonymous one, so that even the sign-in form has a CSRF token. */
export async function ensureSession<E extends WebEnv>(c: Context<E>): Promise<WebSession> {
  return c.var.session ?? writeSession(c, { accountId: null, email: null }, ANONYMOUS_SESSION_SECONDS);
}

/** Replaces whatever session there was with a signed-in one under a fresh id and CSRF token. */
export async function startSignedInSession<E extends WebEnv>(c: Context<E>, account: { id: string; email: string }): Promise<WebSession> {
  await discardStoredSession(c);
  return writeSession(c, { accountId: account.id, email: account.email }, SIGNED_IN_SESSION_SECONDS);
}

/** Signs out: the stored session is deleted and the cookie cleared. */
export async function endSession<E extends WebEnv>(c: Context<E>): Promise<void> {
  await discardStoredSession(c);
  const secure = isSecureContext(new URL(c.req.url));
  deleteCookie(c, sessionCookieName(c.req.url), { path: "/", secure, httpOnly: true, sameSite: "Lax" });
  c.set("session", null);
  c.set("sessionId", null);
}

async function discardStoredSession<E extends WebEnv>(c: Context<E>): Promise<void> {
  const sessionId = c.var.sessionId;
  if (sessionId) await c.env.OAUTH_KV.delete(await storageKey(sessionId));
}
