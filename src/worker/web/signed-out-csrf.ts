/**
 * The CSRF token of a browser without a session, i.e. of the sign-in form: a double-submit of a
 * cookie nonce (OWASP CSRF Prevention Cheat Sheet), so an anonymous page view stores nothing.
 * The cookie (`__Host-csrf`) holds 256 random bits; the form carries their SHA-256, so the page
 * never shows the HttpOnly value itself. Another site can neither read that cookie nor set it, so
 * it cannot produce the token that matches a visitor's cookie. Once signed in, forms carry the
 * stored session's own token instead (session.ts).
 */
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { cookieName, cookieOptions, randomToken, RANDOM_TOKEN } from "./cookies";
import { SIGNED_IN_SESSION_SECONDS, type WebEnv } from "./session";

const COOKIE = "csrf";

/** This browser's token; a browser without the cookie gets one first (a header, no storage). */
export async function signedOutCsrfToken<E extends WebEnv>(c: Context<E>): Promise<string> {
  let nonce = nonceOf(c);
  if (!nonce) {
    nonce = randomToken();
    setCookie(c, cookieName(COOKIE, c.req.url), nonce, cookieOptions(c.req.url, SIGNED_IN_SESSION_SECONDS));
  }
  return tokenOf(nonce);
}

/** The token this browser's cookie vouches for, or null when the request carried no cookie. */
export async function expectedSignedOutToken<E extends WebEnv>(c: Context<E>): Promise<string | null> {
  const nonce = nonceOf(c);
  return nonce ? tokenOf(nonce) : null;
}

function nonceOf<E extends WebEnv>(c: Context<E>): string | null {
  const nonce = getCookie(c, cookieName(COOKIE, c.req.url));
  return nonce && RANDOM_TOKEN.test(nonce) ? nonce : null;
}

async function tokenOf(nonce: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`csrf-token:${nonce}`));
  return new Uint8Array(digest).toBase64({ alphabet: "base64url", omitPadding: true });
}
