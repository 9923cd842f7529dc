/**
 * Sync's rebuild (packages/client/src/node/rebuild.ts) on real files of about 3 MiB, so the old
 * copy is read in several 1 MiB chunks: with both digests on this thread (documents below 128 MiB)
 * and with the whole document's on a worker thread (larger ones, forced here), the new document is
 * byte for byte the release, a changed profile across a chunk boundary included; an old copy with a
 * byte altered in its unchanged profiles, or torn, is refused before the rename, leaving the
 * old copy as it was and no partial file. And `syncRelease` against a server in this process asks
 * for the changed profiles' body before the change list has answered (a sync that waited for the
 * list would wait here for ever: the test times out).
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CatalogVerificationError } from "../../packages/client/src/errors";
import { createCatalogHttp } from "../../packages/client/src/http-client";
import { rebuild } from "../../packages/client/src/node/rebuild";
import { syncRelease } from "../../packages/client/src/node/sync";
import { documentPrefix, releaseIdOf } from "../../packages/client/src/protocol/digests";
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

const CONTRACT = "test.catalog-api/v1";

/** A document of `profiles` in order, where each one is, and its manifest. */
async function documentOf(profiles: readonly { id: string; bytes: Buffer }[]) {
  const body = Buffer.concat([
    Buffer.from("["),
    ...profiles.flatMap((p, i) => (i ? [Buffer.from(","), p.bytes] : [p.bytes])),
    Buffer.from("]"),
  ]);
  const artifact = digest(body);
  const releaseId = await releaseIdOf(CONTRACT, artifact);
  const prefix = Buffer.from(documentPrefix(CONTRACT, releaseId, artifact));
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
    api_contract: CONTRACT,
    bytes: bytes.length,
    sha256: digest(bytes),
    part_bytes: bytes.length,
    profile_count: profiles.length,
    published_at: null,
    parts: [{ index: 0, offset: 0, length: bytes.length, sha256: digest(bytes) }],
  };
  return { bytes, placed, manifest, dataStart: prefix.length };
}

const profile = (i: number, stamp: string) => ({
  id: `arp_${String(i).padStart(6, "0")}`,
  bytes: Buffer.from(JSON.stringify({ id: i, tested: stamp, pad: "x".repeat(4000 + (i % 7) * 300) })),
});

/** 700 profiles (about 3 MiB), then the same with some retested, one removed and one added. */
async function editions() {
  const before = Array.from({ length: 700 }, (_, i) => profile(i, "2026-11-01"));
  const old = await documentOf(before);
  // The profile that holds the first byte of the old copy's second 1 MiB chunk, and a few others.
  const boundary = old.placed.findIndex((p) => p.offset + p.bytes.length > old.dataStart + 1 + CHUNK);
  const retested = new Set([0, 5, boundary, 400, 699]);
  const after = before.map((p, i) => (retested.has(i) ? profile(i, "2026-11-28") : p)).filter((_, i) => i !== 300);
  after.splice(500, 0, profile(9999, "2026-11-28"));
  const now = await documentOf(after);
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

const { old, now, changes, body, boundary } = await editions();

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

/**
 * A server in this process for `syncRelease`: the new release current, no history (the estimate
 * then leaves the decision to the list), and the change list's body held until the changed
 * profiles' body has been asked for.
 */
function server(listAnswer: () => Response) {
  let profilesAsked: () => void = () => {};
  const profilesRequested = new Promise<void>((resolve) => {
    profilesAsked = resolve;
  });
  const release = { "Catalog-Release": now.manifest.release_id };
  const fetch = async (request: Request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/v1/releases/current") return Response.json(now.manifest, { headers: release });
    if (pathname.endsWith("/changes/profiles")) {
      profilesAsked();
      return new Response(body, { headers: release });
    }
    if (pathname.endsWith("/changes")) {
      await profilesRequested;
      return listAnswer();
    }
    return Response.json({ code: "not_found", status: 404 }, { status: 404 });
  };
  return { context: { http: createCatalogHttp({ fetch }), baseUrl: "http://catalog.test" } };
}

describe("sync's requests", () => {
  it("asks for the changed profiles' body while the change list is on its way", async () => {
    const { context } = server(() =>
      Response.json({ release_id: now.manifest.release_id, since: old.manifest.release_id, data: changes, next: null }),
    );
    const copy = path.join(dir, "sync-overlap");
    mkdirSync(copy);
    writeFileSync(path.join(copy, "catalog.json"), old.bytes);
    const result = await syncRelease(context, copy);
    expect(result).toMatchObject({ mode: "changes", profiles: changes.length - 1 });
    expect(readFileSync(path.join(copy, "catalog.json")).equals(now.bytes)).toBe(true);
  });
});
