/**
 * A release's manifest, kept twice: R2 `releases/<hex>/manifest.json` and KV `release:<hex>`
 * (docs/storage.md, "Catalog releases"). R2's create-only put is the arbiter: of publishes of one
 * build at the same moment, each stamping its own `published_at`, the first to create R2's copy
 * wins, and every publish then makes KV hold exactly R2's bytes. So concurrent publishes all end
 * with one manifest, and a publish finding KV differing from R2 (left by an older publish) repairs it.
 */
import { hexOf, Manifest, storageKeys } from "../../common/catalog/manifest";
import { expectDefined } from "../../common/expect";
import { sha256Hex } from "../../common/sha256";
import { sameIndex, sameLayout } from "./release-check";
import { PublishError } from "./release-objects";

/** The parts of an R2 object the record reads (R2ObjectBody satisfies it). */
interface ManifestObject {
  etag: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}
/** The subset of an R2 bucket binding the record uses (R2Bucket satisfies it). */
export interface ManifestBucket {
  get(key: string): Promise<ManifestObject | null>;
  put(
    key: string,
    value: Uint8Array,
    options: {
      onlyIf: { etagDoesNotMatch: string } | { etagMatches: string };
      sha256: string;
      httpMetadata: { contentType: string };
    },
  ): Promise<unknown>;
}
/** The subset of a KV namespace binding the record uses (KVNamespace satisfies it). */
export interface ManifestKv {
  get(key: string): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
}
interface ManifestStorage {
  bucket: ManifestBucket;
  kv: ManifestKv;
}

/** R2's copy: its text (what KV must hold), parsed, and its etag (for a conditional replace). */
interface HeldManifest {
  text: string;
  manifest: Manifest;
  etag: string;
}

/**
 * After R2's copy was created or upgraded, only an upgrade by another publish can change it: three
 * rounds end unless something else keeps rewriting the object.
 */
const SETTLE_ROUNDS = 3;

/** The manifest already published: R2's (the arbiter), else KV's (a publish that stopped before R2). */
export async function publishedManifest(storage: ManifestStorage, hex: string): Promise<Manifest | null> {
  const held = await readHeld(storage.bucket, hex);
  if (held) return held.manifest;
  const text = await storage.kv.get(storageKeys.releaseManifestKv(hex));
  return text === null ? null : Manifest.parse(JSON.parse(text));
}

/** Throws unless `built` cuts the same bytes as the `published` manifest of its release, with the same index. */
export function refuseOtherLayout(published: Manifest, built: Manifest): void {
  if (!sameLayout(published, built)) {
    throw new PublishError(
      `${built.release_id} is already published with part_bytes ${published.part_bytes}; ` +
        `a release's layout is immutable: rebuild with --part-bytes ${published.part_bytes}`,
    );
  }
  if (published.index && !sameIndex(published, built)) {
    const pageBytes = expectDefined(published.index[0], "the published index").page_bytes;
    throw new PublishError(
      `${built.release_id} is already published with another index (page_bytes ${pageBytes}); a release's layout is immutable`,
    );
  }
}

/**
 * Records `manifest` unless R2 holds it already (then R2's `published_at` stands), adds the index
 * to a copy written without one, and makes KV hold R2's bytes. Returns the manifest's text as stored.
 */
export async function recordManifest(storage: ManifestStorage, manifest: Manifest): Promise<string> {
  const text = await settleInR2(storage.bucket, manifest);
  const kvKey = storageKeys.releaseManifestKv(hexOf(manifest.release_id));
  if ((await storage.kv.get(kvKey)) !== text) await storage.kv.put(kvKey, text);
  return text;
}

async function settleInR2(bucket: ManifestBucket, manifest: Manifest): Promise<string> {
  const hex = hexOf(manifest.release_id);
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    const held = await readHeld(bucket, hex);
    if (!held) {
      const text = JSON.stringify(manifest);
      if (await putManifest(bucket, hex, text, { etagDoesNotMatch: "*" })) return text;
      continue; // another publish created it first: adopt what it wrote
    }
    refuseOtherLayout(held.manifest, manifest);
    if (held.manifest.index) return held.text;
    // Published before indexes: the copy gains `index`, nothing else changes (published_at is kept).
    const text = JSON.stringify({ ...manifest, published_at: held.manifest.published_at });
    if (await putManifest(bucket, hex, text, { etagMatches: held.etag })) return text;
  }
  throw new PublishError(
    `R2 ${storageKeys.releaseManifestR2(hex)} kept changing while this publish wrote it; run the same command again`,
  );
}

async function readHeld(bucket: ManifestBucket, hex: string): Promise<HeldManifest | null> {
  const object = await bucket.get(storageKeys.releaseManifestR2(hex));
  if (!object) return null;
  const text = new TextDecoder().decode(await object.arrayBuffer());
  return { text, manifest: Manifest.parse(JSON.parse(text)), etag: object.etag };
}

/** A conditional put of the manifest, with the sha256 R2 checks on arrival; false when the condition failed. */
async function putManifest(
  bucket: ManifestBucket,
  hex: string,
  text: string,
  onlyIf: { etagDoesNotMatch: string } | { etagMatches: string },
): Promise<boolean> {
  const written = await bucket.put(storageKeys.releaseManifestR2(hex), new TextEncoder().encode(text), {
    onlyIf,
    sha256: await sha256Hex(text),
    httpMetadata: { contentType: "application/json" },
  });
  return written !== null;
}
