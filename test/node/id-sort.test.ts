/**
 * The id index's external sort (src/node/catalog/build/id-sort.ts) and the index writer's order check:
 * entries spilled to many runs come back merged in id order, each exactly once and unchanged,
 * including ids that share their first ten characters after `arp_`.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { IdSort } from "../../src/node/catalog/build/id-sort";
import { IndexWriter } from "../../src/node/catalog/build/index-writer";
import { idLine } from "../../src/common/catalog/profile-index";

const root = mkdtempSync(path.join(tmpdir(), "catalog-id-sort-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Ids in no particular order; one in five shares its first ten characters with others. */
const entryOf = (i: number) => ({
  id: `arp_${i % 5 === 0 ? "0000000000" : ((i * 7919) % 10007).toString(36).padStart(10, "z")}${i.toString(36).padStart(16, "0")}`,
  offset: 2 ** 40 + i * 5211,
  length: 5000 + (i % 300),
  sha256: (i * 2654435761).toString(16).padStart(64, "a").slice(-64),
});
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
const linesOf = (sorter: IdSort) => [...sorter.sorted()].map((line) => line.toString("latin1"));

describe("IdSort", () => {
  it("merges many runs into id order, every entry's line once and unchanged", () => {
    const dir = mkdtempSync(path.join(root, "runs-"));
    const entries = Array.from({ length: 3000 }, (_, i) => entryOf(i));
    const sorter = new IdSort(dir, 8 * 1024);
    for (const entry of entries) sorter.add(entry);
    expect(readdirSync(dir).length).toBeGreaterThan(20);
    expect(linesOf(sorter)).toEqual([...entries].sort(byId).map(idLine));
  });

  it("sorts in memory when the entries fit in one run", () => {
    const dir = mkdtempSync(path.join(root, "runs-"));
    const entries = Array.from({ length: 500 }, (_, i) => entryOf(i));
    const sorter = new IdSort(dir);
    for (const entry of entries) sorter.add(entry);
    expect(linesOf(sorter)).toEqual([...entries].sort(byId).map(idLine));
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("IndexWriter", () => {
  it("refuses a key that does not sort after the previous one (an index must be in key order)", () => {
    const writer = new IndexWriter(mkdtempSync(path.join(root, "index-")), "id", 1024);
    writer.add("arp_b", "arp_b x\n");
    expect(() => writer.add("arp_a", "arp_a x\n")).toThrow(/key "arp_a" does not sort after "arp_b"/);
    expect(() => writer.add("arp_b", "arp_b x\n")).toThrow(/does not sort after/);
    const bytes = new IndexWriter(mkdtempSync(path.join(root, "index-")), "id", 1024);
    bytes.addBytes(Buffer.from("arp_b 1 2 f\n"));
    expect(() => bytes.addBytes(Buffer.from("arp_a 1 2 f\n"))).toThrow(/key "arp_a" does not sort after "arp_b"/);
    expect(() => bytes.addBytes(Buffer.from("arp_b 3 4 f\n"))).toThrow(/does not sort after/);
  });
});
