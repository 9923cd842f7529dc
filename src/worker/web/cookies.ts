/**
 * The browser pages' cookies: the session's and the signed-out CSRF cookie's. Both are HttpOnly,
 * SameSite=Lax, Path=/ and, in a secure context, Secure with the `__Host-` prefix (RFC 6265bis
 * §4.1.3.2: no Domain, so no other host can set or overwrite them). Browsers treat https and
 * loopback hosts as secure contexts, so `wrangler dev` on http://localhost gets the same cookies;
 * on plain http to any other host (a LAN address) the browser would drop a Secure cookie, so there
 * the name goes without the prefix and the cookie without Secure.
 */
import type { CookieOptions } from "hono/utils/cookie";
import { isLoopbackHost } from "../../common/auth/redirect-uri";

/** 256 random bits, base64url (43 characters). */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

export const RANDOM_TOKEN = /^[A-Za-z0-9_-]{43}$/;

function isSecureContext(requestUrl: string): boolean {
  const url = new URL(requestUrl);
  return url.protocol === "https:" || isLoopbackHost(url.hostname);
}

export function cookieName(name: string, requestUrl: string): string {
  return isSecureContext(requestUrl) ? `__Host-${name}` : name;
}

export function cookieOptions(requestUrl: string, maxAge?: number): CookieOptions {
  return {
    path: "/",
    httpOnly: true,
    secure: isSecureContext(requestUrl),
    sameSite: "Lax",
    ...(maxAge === undefined ? {} : { maxAge }),
  };
}
