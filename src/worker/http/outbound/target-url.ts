/**
 * Where this worker may send a request a client named: a webhook endpoint (checked at registration
 * and again before each delivery attempt) and an OAuth Client ID Metadata Document (checked before
 * each fetch). SSRF, OWASP "Server-Side Request Forgery Prevention": allow-list the scheme, refuse
 * internal addresses. Pure. At fetch time, `global_fetch_strictly_public` (wrangler.toml) also
 * refuses a private address, whatever the name resolves to by then (DNS rebinding), and both callers
 * never follow redirects.
 *
 * Every rule compares the canonical host (canonicalHost): `localhost.`, `LOCALHOST%2e` and
 * `localhost` are one name. `allowLoopback` is for local development only (`npm start`, `wrangler
 * dev`, the tests set WEBHOOK_LOCAL_TARGETS): it admits `http://127.0.0.1:<port>`,
 * `http://localhost:<port>` and `http://[::1]:<port>`, nothing else private.
 */
import { ipv4Of, ipv4Reason } from "./ipv4-target";
import { ipv6Reason } from "./ipv6-target";

export const MAX_URL_LENGTH = 2048;

export function targetUrlProblems(raw: string, options: { allowLoopback: boolean }): string[] {
  if (raw.length > MAX_URL_LENGTH) return [`is longer than ${MAX_URL_LENGTH} characters`];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return ["is not an absolute URL"];
  }
  const problems: string[] = [];
  if (url.username || url.password) problems.push("must not carry a user name or password");
  if (url.hash) problems.push("must not have a #fragment");
  const host = canonicalHost(url.hostname);
  if (host === null) return [...problems, "must not have an empty label in its host name (such as `name..`)"];
  if (options.allowLoopback && url.protocol === "http:" && LOOPBACK_NAMES.has(host)) return problems;
  if (url.protocol !== "https:") {
    problems.push(
      options.allowLoopback
        ? "must be https (or http://127.0.0.1 / http://localhost on this local deployment)"
        : "must be https",
    );
  }
  const refusal = internalHostReason(host);
  if (refusal) problems.push(`must not point at ${refusal}`);
  return problems;
}

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The host as every rule compares it: the WHATWG parser has lower-cased and percent-decoded it; the
 * one trailing dot of a fully qualified name (RFC 1034 section 3.1) is removed. Null when a label is
 * empty (`localhost..`, `a..b`, `.a`), which no DNS name has.
 */
function canonicalHost(hostname: string): string | null {
  if (hostname.startsWith("[")) return hostname;
  const host = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  return host.split(".").some((label) => label === "") ? null : host;
}

/** Why a canonical host is internal, or null for a public name or address. */
function internalHostReason(host: string): string | null {
  if (host === "localhost" || host.endsWith(".localhost")) return "a loopback name";
  if (host.startsWith("[")) return ipv6Reason(host.slice(1, -1));
  const v4 = ipv4Of(host);
  if (v4) return ipv4Reason(v4);
  if (!host.includes(".")) return "a single-label (intranet) name";
  if (/\.(local|internal|lan|home\.arpa|intranet)$/.test(host)) return "a local-network name";
  return null;
}
