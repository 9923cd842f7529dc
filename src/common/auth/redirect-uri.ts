/**
 * Which redirect URIs a client may register and use. Pure; the operator CLI (Node) and the
 * authorization endpoint (workerd) share it.
 *
 * Stricter than the library on one point: a loopback URI must match with its port too. RFC 8252
 * §7.3 lets native apps vary the port; our contract is an exact string match everywhere
 * (RFC 9700 §2.1), so a native app registers each port it listens on.
 */

/** `localhost`, `127.0.0.0/8` or `::1` (RFC 8252 §7.3, RFC 6761 §6.3). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]" || host === "::1") return true;
  const ipv4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return ipv4?.slice(1).every((octet) => Number(octet) <= 255) ?? false;
}

/**
 * Why `uri` cannot be a redirect URI, or null when it can: absolute, `https` (or `http` on a
 * loopback host), no fragment (RFC 6749 §3.1.2), no userinfo, no control characters or spaces.
 * `javascript:`, `data:` and every other scheme are refused.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length === 0) return "the redirect URI is empty";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point (RFC 3986 §2 allows none).
  if (/[\u0000-\u0020\u007f-\u009f]/.test(uri)) return "the redirect URI contains spaces or control characters";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "the redirect URI is not an absolute URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return `the ${url.protocol} scheme is not allowed; use https (or http on localhost / 127.0.0.1 / [::1])`;
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return `plain http is only allowed on a loopback host; use https://${url.host}${url.pathname}`;
  }
  if (uri.includes("#")) return "a redirect URI must not contain a fragment (RFC 6749 §3.1.2)";
  if (url.username || url.password) return "a redirect URI must not contain user credentials";
  return null;
}

/**
 * True only when `uri` is, character for character, one of the client's registered URIs and is
 * still acceptable under {@link redirectUriProblem} (RFC 9700 §2.1: exact string matching).
 */
export function isRegisteredRedirectUri(uri: string, registered: readonly string[]): boolean {
  return registered.includes(uri) && redirectUriProblem(uri) === null;
}
