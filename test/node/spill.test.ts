/**
 * The build's external sort: records spilled to many run files come back merged in catalog order,
 * byte for byte, including records whose head or body is larger than the writer's 1 MiB chunk.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SortedSpill, type SpillRecord } from "../../src/node/catalog/build/spill";
import { expectDefined } from "../../src/common/expect";

const root = mkdtempSync(path.join(tmpdir(), "catalog-spill-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function record(i: number, options: { file?: string; body?: Buffer } = {}): SpillRecord {
  const product = `product-${(i * 7919) % 13}`;
  const entry = {
    id: `arp_${String((i * 104729) % 1000).padStart(4, "0")}_${i}`,
    productKey: product,
    funnelKey: `funnel-${i % 3}`,
    policyDigest: "sha256:00",
    policyVersion: "v1",
    where: `in.ndjson line ${i + 1}`,
  };
  const sha256 = i.toString(16).padStart(64, "0");
  return {
    entry,
    location: { file: options.file ?? "in.ndjson", line: i + 1 },
    body: options.body ?? Buffer.from(`{"n":${i},"text":"Zürich ${"x".repeat(i % 50)}"}`),
    sha256,
  };
}

const key = (r: SpillRecord) => [r.entry.productKey, r.entry.funnelKey, r.entry.id].join("\u0000");

describe("SortedSpill", () => {
  it("merges many runs into catalog order and gives back every body and digest exactly", () => {
    const dir = mkdtempSync(path.join(root, "runs-"));
    const spill = new SortedSpill(dir, 4096);
    const records = Array.from({ length: 500 }, (_, i) => record(i));
    for (const r of records) spill.add({ ...r, body: Buffer.from(r.body) });
    expect(readdirSync(dir).length).toBeGreaterThan(10);
    const merged = [...spill.sorted()].map((r) => ({
      key: key(r),
      location: r.location,
      body: Buffer.from(r.body).toString(),
      sha256: r.sha256,
    }));
    const expected = [...records]
      .sort((a, b) => (key(a) < key(b) ? -1 : 1))
      .map((r) => ({ key: key(r), location: r.location, body: r.body.toString(), sha256: r.sha256 }));
    expect(merged).toEqual(expected);
  });

  it("gives the runs' disk space back as the merge reads them", () => {
    const dir = mkdtempSync(path.join(root, "runs-"));
    // 256 KiB runs of 64 KiB segments (an input of 32 MiB would make 128 runs): four per run, given back one by one.
    const spill = new SortedSpill(dir, 256 * 1024, 32 * 1024 * 1024);
    const body = Buffer.alloc(3000, "b");
    for (let i = 0; i < 2000; i++) spill.add({ ...record(i), body });
    const spilled = () => readdirSync(dir).reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);
    const before = spilled();
    expect(before).toBeGreaterThan(2000 * 3000);
    const merged = spill.sorted();
    const sizes: number[] = [];
    let n = 0;
    for (const r of merged) {
      expect(r.body.equals(body)).toBe(true);
      if (++n % 500 === 0) sizes.push(spilled());
    }
    expect(n).toBe(2000);
    // Shrinking all along (not only once the merge is done), down to nothing.
    expect(sizes[0]).toBeLessThan(before * 0.9);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThan(expectDefined(sizes[i - 1], `size ${i - 1}`));
    expect(spilled()).toBe(0);
  });

  it("keeps a record whose head (a long file path) and body are each over 1 MiB", () => {
    const dir = mkdtempSync(path.join(root, "runs-"));
    const spill = new SortedSpill(dir, 4096);
    const longFile = `${"d/".repeat(600_000)}in.ndjson`;
    const bigBody = Buffer.alloc(1_500_000, "a");
    const records = [record(1), record(2, { file: longFile, body: bigBody }), record(3)];
    for (const r of records) spill.add(r);
    const merged = [...spill.sorted()].map((r) => ({ file: r.location.file, body: Buffer.from(r.body) }));
    expect(merged).toHaveLength(3);
    const big = merged.find((r) => r.file === longFile);
    expect(big?.body.equals(bigBody)).toBe(true);
  });
});
