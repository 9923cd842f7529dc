/**
 * What a lookup reads from storage (docs/contract.md "Release index"): at most two small index reads — the
 * segment's directory page, then one leaf page — plus the profile's bytes from the one or two parts
 * that hold them; never a whole part or a whole index object. Counted on the real bindings.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { storageKeys } from "../../src/common/catalog/manifest";
import { expectDefined } from "../../src/common/expect";
import { countingEnv } from "./auth-fixtures";
import { apiWithBindings } from "./support/api";
import { documentProfiles, type DocumentProfile } from "./support/document-profiles";
import { publish, releaseIndex, testRelease } from "./support/releases";
import { recordingBinding } from "./support/recording-binding";

const release = testRelease("base");
const { manifest } = release;
const hex = manifest.release_id.slice("sha256:".length);
const pageBytes = expectDefined(releaseIndex(manifest)[0], "the first index of the release").page_bytes;
const profiles = documentProfiles(release);
const partOf = (offset: number) => Math.floor(offset / manifest.part_bytes);
const spansTwoParts = (p: DocumentProfile) => partOf(p.offset) !== partOf(p.offset + p.bytes.length - 1);

interface R2Read {
  key: string;
  range?: { offset: number; length: number };
}

/** One lookup through the app with every R2 and KV call recorded. */
async function lookup(path: string) {
  const { env: counted, calls } = countingEnv();
  const reads: R2Read[] = [];
  const bucket = recordingBinding(env.RELEASES, (method, args) => {
    if (method === "get")
      reads.push({ key: String(args[0]), range: (args[1] as { range?: R2Read["range"] } | undefined)?.range });
  });
  const res = await apiWithBindings({ ...counted, RELEASES: bucket } as Env, path);
  const body = new Uint8Array(await res.arrayBuffer());
  return { res, body, reads, calls };
}

const indexReads = (reads: R2Read[]) => reads.filter((read) => read.key.startsWith(`releases/${hex}/index/`));
const partReads = (reads: R2Read[]) => reads.filter((read) => read.key.startsWith(`releases/${hex}/parts/`));

beforeAll(async () => {
  await publish(release);
});

describe("storage reads of one lookup", () => {
  it("cold: the directory page and one leaf page, both small ranges; then the profile's bytes from two parts", async () => {
    const profile = expectDefined(profiles.find(spansTwoParts), "a profile that spans two parts");
    const { res, body, reads } = await lookup(`/v1/profiles/${profile.id}`);
    expect(res.status).toBe(200);
    expect(body).toEqual(profile.bytes);
    expect(indexReads(reads)).toHaveLength(2);
    for (const read of indexReads(reads)) expect(read.range?.length).toBeLessThanOrEqual(pageBytes);
    const first = partOf(profile.offset);
    expect(partReads(reads)).toEqual([
      {
        key: storageKeys.part(hex, first),
        range: {
          offset: profile.offset - first * manifest.part_bytes,
          length: (first + 1) * manifest.part_bytes - profile.offset,
        },
      },
      {
        key: storageKeys.part(hex, first + 1),
        range: { offset: 0, length: profile.offset + profile.bytes.length - (first + 1) * manifest.part_bytes },
      },
    ]);
    expect(reads).toHaveLength(4);
  });

  it("warm: the directory page is in isolate memory, so one leaf page and the profile's bytes", async () => {
    const profile = expectDefined(
      profiles.find((p) => !spansTwoParts(p)),
      "a profile within one part",
    );
    await lookup(`/v1/profiles/${profile.productKey}/${profile.funnelKey}`);
    const { body, reads, calls } = await lookup(`/v1/profiles/${profile.productKey}/${profile.funnelKey}`);
    expect(body).toEqual(profile.bytes);
    expect(indexReads(reads)).toHaveLength(1);
    expect(indexReads(reads)[0]?.range?.length).toBeLessThanOrEqual(pageBytes);
    expect(partReads(reads)).toEqual([
      {
        key: storageKeys.part(hex, partOf(profile.offset)),
        range: { offset: profile.offset % manifest.part_bytes, length: profile.bytes.length },
      },
    ]);
    // The manifest comes from isolate memory too; `current` is read at most once a second.
    expect(calls.filter((call) => call.startsWith("CATALOG_KV.")).length).toBeLessThanOrEqual(1);
  });

  it("every lookup of every profile: at most two index reads, every read a range, never a whole object", async () => {
    for (const profile of profiles) {
      for (const path of [
        `/v1/profiles/${profile.id}`,
        `/v1/releases/${manifest.release_id}/profiles/${profile.productKey}/${profile.funnelKey}`,
      ]) {
        const { body, reads } = await lookup(path);
        expect(body).toEqual(profile.bytes);
        expect(indexReads(reads).length).toBeLessThanOrEqual(2);
        expect(
          reads.every(
            (read) => read.range !== undefined && read.range.length <= Math.max(pageBytes, profile.bytes.length),
          ),
        ).toBe(true);
        expect(
          partReads(reads).reduce((sum, read) => sum + expectDefined(read.range, "the range of a part read").length, 0),
        ).toBe(profile.bytes.length);
      }
    }
  });

  it("a key before every key of the index is answered 404 without reading storage", async () => {
    const { res, reads } = await lookup("/v1/profiles/0-first/x");
    expect(res.status).toBe(404);
    expect(reads).toEqual([]);
  });
});
