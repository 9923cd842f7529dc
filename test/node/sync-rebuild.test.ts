/**
 * Sync's rebuild (packages/client/src/node/rebuild.ts) on real files of about 3 MiB, so the old
 * copy is read in several 1 MiB chunks: with both digests on this thread (documents below 128 MiB)
 * and with the whole document's on a worker thread (larger ones, forced here), the new document is
 * byte for byte the release, a changed profile across a chunk boundary included; an old copy with a
 * byte altered in its unchanged profiles, or torn, is refused before the rename, leaving the
 * old copy as it was and no partial file.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CatalogVerificationError } from "../../packages/client/src/errors";
import { rebuild } from "../../packages/client/src/node/rebuild";
import { documentPrefix } from "../../packages/client/src/protocol/digests";
import { ByteReader, type ReleaseChange } from "../../packages/client/src/release-changes";
import type { Manifest } from "../../packages/client/src/types";

const dir = mkdtempSync(path.join(tmpdir(), "sync-rebuild-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const digest = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const CHUNK = 1024 * 1024;

interface Placed {
  id: string;
  bytes: Buffer;
  offset: number;
}

/** A document of `profiles` in order, where each one is, and its manifest. */
function documentOf(releaseId: string, profiles: readonly { id: string; bytes: Buffer }[]) {
  const body = Buffer.concat([
    Buffer.from("["),
    ...profiles.flatMap((p, i) => (i ? [Buffer.from(","), p.bytes] : [p.bytes])),
    Buffer.from("]"),
  ]);
  const artifact = digest(body);
  const prefix = Buffer.from(documentPrefix("v1", releaseId, artifact));
  const bytes = Buffer.concat([prefix, body, Buffer.from("}")]);
  let at = prefix.length + 1;
  const placed: Placed[] = profiles.map((p) => {
    const offset = at;
    at += p.bytes.length + 1;
    return { ...p, offset };
  });
  const manifest: Manifest = {
    release_id: releaseId,
    artifact_sha256: artifact,
    api_contract: "v1",
    bytes: bytes.length,
    sha256: digest(bytes),
    part_bytes: bytes.length,
    profile_count: profiles.length,
    published_at: null,
    parts: [],
  };
  return { bytes, placed, manifest, dataStart: prefix.length };
}

const profile = (i: number, stamp: string) => ({
  id: `arp_${String(i).padStart(6, "0")}`,
  bytes: Buffer.from(JSON.stringify({ id: i, tested: stamp, pad: "x".repeat(4000 + (i % 7) * 300) })),
});

/** 700 profiles (about 3 MiB), then the same with some retested, one removed and one added. */
function editions() {
  const before = Array.from({ length: 700 }, (_, i) => profile(i, "2026-11-01"));
  const old = documentOf(`sha256:${"a".repeat(64)}`, before);
  // The profile that holds the first byte of the old copy's second 1 MiB chunk, and a few others.
  const boundary = old.placed.findIndex((p) => p.offset + p.bytes.length > old.dataStart + 1 + CHUNK);
  const retested = new Set([0, 5, boundary, 400, 699]);
  const after = before.map((p, i) => (retested.has(i) ? profile(i, "2026-11-28") : p)).filter((_, i) => i !== 300);
  after.splice(500, 0, profile(9999, "2026-11-28"));
  const now = documentOf(`sha256:${"b".repeat(64)}`, after);
  const oldAt = new Map(old.placed.map((p) => [p.id, p]));
  const changes: ReleaseChange[] = [];
  for (const p of now.placed) {
    const was = oldAt.get(p.id);
    if (was?.bytes.equals(p.bytes)) continue;
    changes.push({
      ...change(was ? "changed" : "added", p.id),
      sha256: digest(p.bytes),
      offset: p.offset,
      length: p.bytes.length,
      ...(was && {
        previous_sha256: digest(was.bytes),
        previous_offset: was.offset,
        previous_length: was.bytes.length,
      }),
    });
  }
  const removed = old.placed[300];
  if (!removed) throw new Error("profile 300");
  changes.push({
    ...change("removed", removed.id),
    previous_offset: removed.offset,
    previous_length: removed.bytes.length,
  });
  const body = Buffer.concat(
    changes.flatMap((c) => (c.offset === undefined ? [] : [now.bytes.subarray(c.offset, c.offset + (c.length ?? 0))])),
  );
  return { old, now, changes, body, boundary };
}

const change = (kind: ReleaseChange["change"], id: string) => ({
  change: kind,
  agent_readiness_profile_id: id,
  product_key: "p",
  funnel_key: "f",
  href: `/v1/profiles/${id}`,
});

const { old, now, changes, body, boundary } = editions();

/** Rebuilds the new release over `oldCopy` in a fresh directory; the target's path. */
async function rebuildOver(name: string, oldCopy: Buffer, threadFromBytes: number) {
  const target = path.join(dir, name, "catalog.json");
  rmSync(path.dirname(target), { recursive: true, force: true });
  mkdirSync(path.dirname(target));
  writeFileSync(target, oldCopy);
  const local = { releaseId: old.manifest.release_id, dataStart: old.dataStart, bytes: oldCopy.length };
  const fetched = new ByteReader(new Response(body), "test:changes/profiles");
  const outcome = await rebuild(now.manifest, local, changes, fetched, target, {}, threadFromBytes).catch(
    (error: unknown) => error,
  );
  return { target, outcome };
}

describe.each([
  ["both digests on this thread", Number.POSITIVE_INFINITY],
  ["the whole document's digest on a worker thread", 0],
])("rebuild, %s", (label, threadFromBytes) => {
  const name = (what: string) => `${what}-${threadFromBytes ? "here" : "thread"}`;

  it("writes exactly the new document, a changed profile across a chunk boundary included", async () => {
    const edge = old.placed[boundary];
    expect(edge && edge.offset < old.dataStart + 1 + CHUNK).toBe(true);
    const { target, outcome } = await rebuildOver(name("whole"), old.bytes, threadFromBytes);
    expect(outcome, label).toBe(body.length);
    expect(readFileSync(target).equals(now.bytes)).toBe(true);
    expect(readdirSync(path.dirname(target))).toEqual(["catalog.json"]);
  });

  it("refuses an old copy with a byte altered in a profile that did not change: old copy kept, no partial", async () => {
    const altered = Buffer.from(old.bytes);
    const unchanged = old.placed[450];
    if (!unchanged) throw new Error("profile 450");
    altered[unchanged.offset + 2000] = (altered[unchanged.offset + 2000] ?? 0) ^ 1;
    const { target, outcome } = await rebuildOver(name("altered"), altered, threadFromBytes);
    expect(outcome).toBeInstanceOf(CatalogVerificationError);
    expect(readFileSync(target).equals(altered)).toBe(true);
    expect(readdirSync(path.dirname(target))).toEqual(["catalog.json"]);
  });

  it("refuses an old copy torn as a power loss leaves it (its last pages zeros): old copy kept, no partial", async () => {
    const torn = Buffer.from(old.bytes).fill(0, old.bytes.length - 8192);
    const { target, outcome } = await rebuildOver(name("torn"), torn, threadFromBytes);
    expect(outcome).toBeInstanceOf(CatalogVerificationError);
    expect(readFileSync(target).equals(torn)).toBe(true);
    expect(readdirSync(path.dirname(target))).toEqual(["catalog.json"]);
  });
});
