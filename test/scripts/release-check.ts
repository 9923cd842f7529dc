/**
 * An independent check of a built release, sharing no code with the build: reassemble the parts,
 * hash with node:crypto, re-canonicalize `data` with the `canonicalize` package, and compare every
 * digest and the exact document bytes with what DESIGN.md defines.
 */
import canonicalize from "canonicalize";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";

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
  };
  parts: Buffer[];
  document: Buffer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any[];
}

export function checkRelease(releaseDir: string): CheckedRelease {
  const manifest = JSON.parse(readFileSync(path.join(releaseDir, "manifest.json"), "utf8")) as CheckedRelease["manifest"];
  expect(path.basename(releaseDir)).toBe(manifest.release_id.slice("sha256:".length));
  expect(manifest.published_at).toBeNull();
  const files = readdirSync(path.join(releaseDir, "parts")).sort((a, b) => Number(a) - Number(b));
  expect(files).toEqual(manifest.parts.map((p) => String(p.index)));
  const parts = files.map((f) => readFileSync(path.join(releaseDir, "parts", f)));
  let offset = 0;
  manifest.parts.forEach((part, i) => {
    expect(part).toEqual({ index: i, offset, length: parts[i]!.length, sha256: sha256(parts[i]!) });
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
  expect(sha256(canonicalize({ api_contract: manifest.api_contract, artifact_sha256: manifest.artifact_sha256 }) as string)).toBe(manifest.release_id);
  expect(parsed).toMatchObject({ api_contract: manifest.api_contract, release_id: manifest.release_id, artifact_sha256: manifest.artifact_sha256 });
  const expected = `{"api_contract":${JSON.stringify(manifest.api_contract)},"release_id":"${manifest.release_id}","artifact_sha256":"${manifest.artifact_sha256}","data":${data}}`;
  expect(document.equals(Buffer.from(expected))).toBe(true);
  expect(parsed.data).toHaveLength(manifest.profile_count);
  return { manifest, parts, document, data: parsed.data };
}

/** Profiles are in catalog order: product key, funnel key, profile id. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectCatalogOrder(data: any[]): void {
  const keys = data.map((p) => [p.scope.product.key, p.scope.funnel.key, p.agent_readiness_profile_id] as string[]);
  const sorted = [...keys].sort((a, b) => (a[0] !== b[0] ? (a[0]! < b[0]! ? -1 : 1) : a[1] !== b[1] ? (a[1]! < b[1]! ? -1 : 1) : a[2]! < b[2]! ? -1 : 1));
  expect(keys).toEqual(sorted);
}
