/**
 * Where a webhook may be delivered: the check of an endpoint's URL at registration (SSRF, OWASP
 * "Server-Side Request Forgery Prevention": allow-list the scheme, refuse internal addresses).
 * Pure. At delivery, `global_fetch_strictly_public` (wrangler.toml) refuses a private address
 * again, whatever the name resolves to by then (DNS rebinding), and redirects are never followed.
 *
 * `allowLoopback` is for local development only (`npm start`, `wrangler dev`, the tests set
 * WEBHOOK_LOCAL_TARGETS): it admits `http://127.0.0.1:<port>` and `http://localhost:<port>`, nothing
 * else private.
 */
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
  const host = url.hostname.toLowerCase();
  if (options.allowLoopback && url.protocol === "http:" && isLoopbackName(host)) return problems;
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

const isLoopbackName = (host: string) => host === "127.0.0.1" || host === "localhost" || host === "[::1]";

/** Why a host is internal, or null for a public name or address. */
function internalHostReason(host: string): string | null {
  if (host === "localhost" || host.endsWith(".localhost")) return "a loopback name";
  if (host.startsWith("[")) return ipv6Reason(host.slice(1, -1));
  const v4 = ipv4Of(host);
  if (v4) return ipv4Reason(v4);
  if (!host.includes(".")) return "a single-label (intranet) name";
  if (/\.(local|internal|lan|home\.arpa|intranet)$/.test(host)) return "a local-network name";
  return null;
}

/** The WHATWG URL parser already canonicalized every IPv4 spelling (0x7f.1, 2130706433) to a.b.c.d. */
function ipv4Of(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  return parts.map(Number);
}

// RFC 6890 special-purpose blocks (and RFC 6598 shared address space): never a webhook receiver.
const IPV4_BLOCKS: [number, number, number, string][] = [
  [0, 0, 8, "a reserved address"],
  [10, 0, 8, "a private address"],
  [100, 64, 10, "a shared (carrier-grade NAT) address"],
  [127, 0, 8, "a loopback address"],
  [169, 254, 16, "a link-local address"],
  [172, 16, 12, "a private address"],
  [192, 0, 16, "a reserved address"],
  [192, 168, 16, "a private address"],
  [198, 18, 15, "a benchmarking address"],
  [224, 0, 3, "a multicast or reserved address"],
];

function ipv4Reason([a = 0, b = 0]: number[]): string | null {
  const value = (a << 8) | b;
  for (const [first, second, prefix, reason] of IPV4_BLOCKS) {
    const mask = prefix >= 16 ? 0xffff : (0xffff << (16 - prefix)) & 0xffff;
    if ((value & mask) === (((first << 8) | second) & mask)) return reason;
  }
  return null;
}

/** Only global unicast (2000::/3) is public; that also refuses ::1, fe80::/10, fc00::/7 and IPv4-mapped forms. */
function ipv6Reason(address: string): string | null {
  return /^[23][0-9a-f]{0,3}:/.test(address) ? null : "a loopback, link-local, private or mapped IPv6 address";
}
