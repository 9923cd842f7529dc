/** Catalog-wide rules (src/node/catalog/validation-catalog.ts): policy, unique ids, unique scopes. */
import { describe, expect, it } from "vitest";
import { CatalogOrderCheck, CatalogTally, type CatalogEntry } from "../../src/node/catalog/validation-catalog";

const POLICY = { policyDigest: `sha256:${"a".repeat(64)}`, policyVersion: "p/1" };
const entry = (id: string, productKey: string, funnelKey: string, extra: Partial<CatalogEntry> = {}): CatalogEntry => ({
  id,
  productKey,
  funnelKey,
  ...POLICY,
  where: `${id}.json`,
  ...extra,
});

function check(entries: CatalogEntry[]) {
  const tally = new CatalogTally();
  for (const e of entries) tally.observe(e);
  const order = new CatalogOrderCheck(tally);
  const sorted = [...entries].sort((x, y) =>
    `${x.productKey}\0${x.funnelKey}\0${x.id}` < `${y.productKey}\0${y.funnelKey}\0${y.id}` ? -1 : 1,
  );
  const out = sorted.flatMap((e) => order.check(e));
  return [...out, ...order.finish()].map(({ entry: e, ...v }) => ({ at: e.where, ...v }));
}

describe("catalog-wide rules", () => {
  it("many distinct profiles: no violation (no false duplicate from fingerprints)", () => {
    const entries = Array.from({ length: 20_000 }, (_, i) =>
      entry(`arp_${i.toString(36).padStart(26, "0")}`, `p-${i % 997}`, `f-${i}`),
    );
    expect(check(entries)).toEqual([]);
  });

  it("unique-profile-id: every shared id among 5,000 is found, whatever bits its fingerprint has", () => {
    // Half of all fingerprints have the high bit set; one such id once slipped through as unique.
    const ids = Array.from({ length: 5_000 }, (_, i) => `arp_${(i * 7_919).toString(36).padStart(26, "0")}`);
    const tally = new CatalogTally();
    for (const id of [...ids, ...ids]) tally.observe({ id, ...POLICY });
    expect(tally.duplicateIds).toEqual(new Set(ids));
  });

  it("unique-profile-id: every profile sharing an id is reported, naming the others", () => {
    const report = check([
      entry("arp_1", "a", "x", { where: "a.json" }),
      entry("arp_1", "b", "y", { where: "b.json" }),
      entry("arp_1", "c", "z", { where: "c.json" }),
      entry("arp_2", "d", "w"),
    ]);
    expect(report).toEqual([
      {
        at: "a.json",
        rule: "unique-profile-id",
        path: "agent_readiness_profile_id",
        message: "3 profiles share this id; also in b.json, c.json",
        expected: "an id no other profile has",
        found: '"arp_1"',
      },
      {
        at: "b.json",
        rule: "unique-profile-id",
        path: "agent_readiness_profile_id",
        message: "3 profiles share this id; also in a.json, c.json",
        expected: "an id no other profile has",
        found: '"arp_1"',
      },
      {
        at: "c.json",
        rule: "unique-profile-id",
        path: "agent_readiness_profile_id",
        message: "3 profiles share this id; also in a.json, b.json",
        expected: "an id no other profile has",
        found: '"arp_1"',
      },
    ]);
  });

  it("unique-scope: the second profile of a (product, funnel) pair names the first", () => {
    expect(
      check([entry("arp_2", "pay", "checkout"), entry("arp_1", "pay", "checkout"), entry("arp_3", "pay", "payouts")]),
    ).toEqual([
      {
        at: "arp_2.json",
        rule: "unique-scope",
        path: "scope",
        message: 'product "pay" with funnel "checkout" is already profiled by arp_1 (arp_1.json)',
        expected: "a (product, funnel) pair no other profile has",
        found: '{"product":"pay","funnel":"checkout"}',
      },
    ]);
  });

  it("policy-consistency: the most common policy is expected of every profile", () => {
    const odd = entry("arp_9", "z", "z", { policyVersion: "p/2", policyDigest: `sha256:${"b".repeat(64)}` });
    expect(check([entry("arp_1", "a", "a"), entry("arp_2", "b", "b"), odd])).toEqual([
      {
        at: "arp_9.json",
        rule: "policy-consistency",
        path: "policy_digest",
        message: "every profile of a catalog is graded under one policy",
        expected: `"${POLICY.policyDigest}"`,
        found: `"sha256:${"b".repeat(64)}"`,
      },
      {
        at: "arp_9.json",
        rule: "policy-consistency",
        path: "policy_version",
        message: "every profile of a catalog is graded under one policy",
        expected: '"p/1"',
        found: '"p/2"',
      },
    ]);
  });

  it("policy-consistency: a tie is broken the same way whatever the order", () => {
    const a = entry("arp_1", "a", "a");
    const b = entry("arp_2", "b", "b", { policyVersion: "p/0" });
    expect(check([a, b])).toEqual(check([b, a]));
    expect(check([a, b])[0]).toMatchObject({ at: "arp_1.json", expected: '"p/0"' });
  });
});
