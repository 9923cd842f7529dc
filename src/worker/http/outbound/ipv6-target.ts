/**
 * Why an IPv6 literal is no outbound target, or null. Only global unicast (2000::/3) is public, and
 * within it the transition forms that carry an IPv4 address (6to4, Teredo) are refused too: a relay
 * would deliver to that IPv4 address, which may be internal. The forms outside 2000::/3 that carry one
 * (IPv4-mapped, IPv4-compatible, NAT64) name it in the reason, so the refusal says what it hides.
 */
import { ipv4Reason } from "./ipv4-target";

/** `address`: the WHATWG URL parser's serialization (lower-case, `::`-compressed, no dotted quad). */
export function ipv6Reason(address: string): string | null {
  const words = ipv6Words(address);
  if (!words) return "a malformed IPv6 address";
  const embedded = embeddedIpv4(words);
  if (embedded) {
    const dotted = embedded.ipv4.join(".");
    const inner = ipv4Reason(embedded.ipv4);
    if (inner) return `${inner} (${dotted}, embedded in ${embedded.form} IPv6 address)`;
    return `an IPv6 address that embeds ${dotted} (${embedded.form} address): use ${dotted} itself`;
  }
  return (words[0] ?? 0) >> 13 === 1 ? null : "a loopback, link-local, private or reserved IPv6 address";
}

/** The eight 16-bit words of an IPv6 address, or null. */
function ipv6Words(address: string): number[] | null {
  const [head = "", tail, ...more] = address.split("::");
  if (more.length > 0) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((word) => Number.parseInt(word, 16)));
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  const gap = 8 - first.length - last.length;
  if (gap < 0 || (tail === undefined && gap !== 0)) return null;
  const words = [...first, ...new Array<number>(gap).fill(0), ...last];
  return words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff) ? words : null;
}

const bytesOf = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
const isZero = (words: number[]) => words.every((word) => word === 0);

/** The IPv4 address a transition form carries, and the form's name with its article. */
function embeddedIpv4(w: number[]): { ipv4: number[]; form: string } | null {
  const [w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0] = w;
  // RFC 4291 section 2.5.5.2: ::ffff:0:0/96, IPv4-mapped.
  if (isZero([w0, w1, w2, w3, w4]) && w5 === 0xffff) return { ipv4: bytesOf(w6, w7), form: "an IPv4-mapped" };
  // RFC 4291 section 2.5.5.1: ::/96, IPv4-compatible (deprecated); :: and ::1 are not.
  if (isZero([w0, w1, w2, w3, w4, w5]) && w6 !== 0) return { ipv4: bytesOf(w6, w7), form: "an IPv4-compatible" };
  // RFC 6052 section 2.1: 64:ff9b::/96, the well-known NAT64 prefix.
  if (w0 === 0x64 && w1 === 0xff9b && isZero([w2, w3, w4, w5])) return { ipv4: bytesOf(w6, w7), form: "a NAT64" };
  // RFC 8215: 64:ff9b:1::/48, local-use NAT64; a /48 prefix puts the IPv4 address around the u octet (RFC 6052 section 2.2).
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 1)
    return { ipv4: [w3 >> 8, w3 & 0xff, w4 & 0xff, w5 >> 8], form: "a local-use NAT64" };
  // RFC 3056 section 2: 2002::/16, 6to4, the IPv4 address in the next 32 bits.
  if (w0 === 0x2002) return { ipv4: bytesOf(w1, w2), form: "a 6to4" };
  // RFC 4380 section 4: 2001::/32, Teredo, the client's IPv4 address in the last 32 bits, inverted.
  if (w0 === 0x2001 && w1 === 0) return { ipv4: bytesOf(w6 ^ 0xffff, w7 ^ 0xffff), form: "a Teredo" };
  return null;
}
