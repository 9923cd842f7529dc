/** Why an IPv4 address is no outbound target (an internal range), or null for a public one. */

/** The WHATWG URL parser already canonicalized every IPv4 spelling (0x7f.1, 2130706433) to a.b.c.d. */
export function ipv4Of(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  return parts.map(Number);
}

// RFC 6890 special-purpose blocks (and RFC 6598 shared address space): never an outbound target.
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

export function ipv4Reason([a = 0, b = 0]: number[]): string | null {
  const value = (a << 8) | b;
  for (const [first, second, prefix, reason] of IPV4_BLOCKS) {
    const mask = prefix >= 16 ? 0xffff : (0xffff << (16 - prefix)) & 0xffff;
    if ((value & mask) === (((first << 8) | second) & mask)) return reason;
  }
  return null;
}
