/**
 * An independent check of a built release, sharing no code with the build: reassemble the parts,
 * hash with node:crypto, re-canonicalize `data` with the `canonicalize` package, and compare every
 * digest and the exact document bytes with what docs/contract.md defines.
 */
import canonicalize from "canonicalize";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { expectDefined } from "../../src/common/expect";

const sha256 = (bytes: Buffer | string) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

export interface CheckedRelease {
  manifest: {
    release_id: string;
    artifact_sha256: string;
    api_contract: string;
    bytes: number;
    sha256: string;
    part_bytes: number;
    profile_count: number;
    published_at: null;
    parts: { index: number; offset: number; length: number; sha256: string }[];
    index: {
      name: string;
      page_bytes: number;
      segments: { index: number; first: string; length: number; sha256: string; directory_offset: number }[];
    }[];
  };
  parts: Buffer[];
  document: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: the independent checker reads profiles as untyped JSON, on purpose: it must not share the schema it checks.
  data: any[];
}

export function checkRelease(releaseDir: string): CheckedRelease {
  const manifest = JSON.parse(
    readFileSync(path.join(releaseDir, "manifest.json"), "utf8"),
  ) as CheckedRelease["manifest"];
  expect(path.basename(releaseDir)).toBe(manifest.release_id.slice("sha256:".length));
  expect(manifest.published_at).toBeNull();
  const files = readdirSync(path.join(releaseDir, "parts")).sort((a, b) => Number(a) - Number(b));
  expect(files).toEqual(manifest.parts.map((p) => String(p.index)));
  const parts = files.map((f) => readFileSync(path.join(releaseDir, "parts", f)));
  let offset = 0;
  manifest.parts.forEach((part, i) => {
    const bytes = expectDefined(parts[i], `the file of part ${i}`);
    expect(part).toEqual({ index: i, offset, length: bytes.length, sha256: sha256(bytes) });
    if (i < parts.length - 1) expect(part.length).toBe(manifest.part_bytes);
    offset += part.length;
  });
  const document = Buffer.concat(parts);
  expect(document.length).toBe(manifest.bytes);
  expect(sha256(document)).toBe(manifest.sha256);

  const parsed = JSON.parse(document.toString("utf8"));
  expect(Object.keys(parsed)).toEqual(["api_contract", "release_id", "artifact_sha256", "data"]);
  const data = canonicalize(parsed.data) as string;
  expect(sha256(data)).toBe(manifest.artifact_sha256);
  expect(
    sha256(canonicalize({ api_contract: manifest.api_contract, artifact_sha256: manifest.artifact_sha256 }) as string),
  ).toBe(manifest.release_id);
  expect(parsed).toMatchObject({
    api_contract: manifest.api_contract,
    release_id: manifest.release_id,
    artifact_sha256: manifest.artifact_sha256,
  });
  const expected = `{"api_contract":${JSON.stringify(manifest.api_contract)},"release_id":"${manifest.release_id}","artifact_sha256":"${manifest.artifact_sha256}","data":${data}}`;
  expect(document.equals(Buffer.from(expected))).toBe(true);
  expect(parsed.data).toHaveLength(manifest.profile_count);
  checkIndex(releaseDir, manifest, document, parsed.data);
  return { manifest, parts, document, data: parsed.data };
}

/**
 * The release index (docs/contract.md "Release index"), read the way a client would: every segment's size
 * and digest; every directory line pointing at a leaf of whole lines within page_bytes; and, over
 * all leaves, exactly one line per profile, in key order, giving the profile's bytes in the document.
 */
// biome-ignore lint/suspicious/noExplicitAny: the independent checker reads profiles as untyped JSON, on purpose: it must not share the schema it checks.
function checkIndex(releaseDir: string, manifest: CheckedRelease["manifest"], document: Buffer, data: any[]): void {
  let offset = document.indexOf('"data":[') + 8;
  // biome-ignore lint/suspicious/noExplicitAny: the independent checker reads profiles as untyped JSON, on purpose: it must not share the schema it checks.
  const expected = data.map((profile: any) => {
    const bytes = Buffer.from(canonicalize(profile) as string);
    const entry = {
      product: profile.scope.product.key,
      funnel: profile.scope.funnel.key,
      id: profile.agent_readiness_profile_id,
      offset,
      length: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    };
    expect(document.subarray(offset, offset + bytes.length).equals(bytes)).toBe(true);
    offset += bytes.length + 1;
    return entry;
  });
  expect(manifest.index.map((index) => index.name)).toEqual(["scope", "id"]);
  for (const { name, page_bytes, segments } of manifest.index) {
    const dir = path.join(releaseDir, "index", name);
    expect(readdirSync(dir).sort((a, b) => Number(a) - Number(b))).toEqual(
      segments.map((segment) => String(segment.index)),
    );
    const lines: string[] = [];
    segments.forEach((segment, i) => {
      const bytes = readFileSync(path.join(dir, String(i)));
      expect([bytes.length, sha256(bytes)]).toEqual([segment.length, segment.sha256]);
      const directory = bytes.subarray(segment.directory_offset).toString("utf8");
      expect(directory.length <= page_bytes || directory.split("\n").length === 2).toBe(true);
      let leafEnd = 0;
      const directoryLines = directory.split("\n").slice(0, -1);
      expect(directoryLines[0]?.startsWith(`${segment.first} `)).toBe(true);
      for (const line of directoryLines) {
        const [, first, at, length] = expectDefined(/^(.+) (\d+) (\d+)$/.exec(line), `a directory line, not "${line}"`);
        expect(Number(at)).toBe(leafEnd); // leaves are consecutive, from the segment's start to its directory
        leafEnd += Number(length);
        const leaf = bytes.subarray(Number(at), leafEnd).toString("utf8").split("\n");
        expect(leaf.pop()).toBe("");
        expect(Number(length) <= page_bytes || leaf.length === 1).toBe(true);
        expect(leaf[0]?.startsWith(`${first} `)).toBe(true);
        lines.push(...leaf);
      }
      expect(leafEnd).toBe(segment.directory_offset);
    });
    const keyOf = (e: (typeof expected)[number]) => (name === "scope" ? `${e.product} ${e.funnel}` : e.id);
    const lineOf = (e: (typeof expected)[number]) =>
      name === "scope"
        ? `${e.product} ${e.funnel} ${e.id} ${e.offset} ${e.length} ${e.sha256}`
        : `${e.id} ${e.offset} ${e.length} ${e.sha256}`;
    expect(lines).toEqual([...expected].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1)).map(lineOf));
  }
}

/** Profiles are in catalog order: product key, funnel key, profile id. */
// biome-ignore lint/suspicious/noExplicitAny: the independent checker reads profiles as untyped JSON, on purpose: it must not share the schema it checks.
export function expectCatalogOrder(data: any[]): void {
  const keys: { product: string; funnel: string; id: string }[] = data.map((p) => ({
    product: p.scope.product.key,
    funnel: p.scope.funnel.key,
    id: p.agent_readiness_profile_id,
  }));
  const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...keys].sort(
    (a, b) => byCodeUnits(a.product, b.product) || byCodeUnits(a.funnel, b.funnel) || byCodeUnits(a.id, b.id),
  );
  expect(keys).toEqual(sorted);
}
