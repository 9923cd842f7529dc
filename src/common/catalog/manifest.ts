/**
 * A release's manifest and the `current` pointer (docs/contract.md, "Document and digests").
 * The manifest is written next to the parts in R2 and as `release:<hex>` in KV; `current` is the
 * only mutable record.
 */
import { z } from "@hono/zod-openapi";
import { INDEX_NAMES } from "./profile-index";
import { ApiContract, Sha256Digest } from "./schema";

export const PartEntry = z
  .strictObject({
    index: z.int().min(0),
    offset: z.int().min(0),
    length: z.int().min(1),
    sha256: Sha256Digest,
  })
  .openapi("PartEntry");

/** One object of a release index; its last bytes, from `directory_offset`, are its directory page. */
export const IndexSegment = z
  .strictObject({
    index: z.int().min(0),
    first: z
      .string()
      .min(1)
      .openapi({ description: "The first key in the segment (`<product_key> <funnel_key>` or a profile id)." }),
    length: z.int().min(1),
    sha256: Sha256Digest,
    directory_offset: z.int().min(0),
  })
  .openapi("IndexSegment");

export const ReleaseIndex = z
  .strictObject({
    name: z
      .enum(INDEX_NAMES)
      .openapi({ description: "`scope`: keyed by product and funnel key; `id`: keyed by profile id." }),
    page_bytes: z.int().min(1),
    segments: z.array(IndexSegment).min(1),
  })
  .openapi("ReleaseIndex");
export type ReleaseIndex = z.infer<typeof ReleaseIndex>;

export const Manifest = z
  .strictObject({
    release_id: Sha256Digest,
    artifact_sha256: Sha256Digest,
    api_contract: ApiContract,
    bytes: z.int().min(1).openapi({ description: "Size of the whole document in bytes." }),
    sha256: Sha256Digest.openapi({ description: "SHA-256 of the whole document's bytes." }),
    part_bytes: z.int().min(1),
    profile_count: z.int().min(0),
    published_at: z.iso.datetime().nullable().openapi({
      description: "When the release was first published; null in a build that was not published yet.",
    }),
    parts: z.array(PartEntry).min(1),
    // Optional: releases published before profile lookups existed have none.
    index: z.array(ReleaseIndex).optional().openapi({
      description:
        "Where each profile is in the document, by scope and by id: the objects behind the /v1/profiles lookups.",
    }),
  })
  .openapi("Manifest");
export type Manifest = z.infer<typeof Manifest>;

export const CurrentPointer = z.strictObject({
  release_id: Sha256Digest,
  previous: z.array(Sha256Digest),
});
export type CurrentPointer = z.infer<typeof CurrentPointer>;

/** Storage keys, one place (R2 object keys and KV keys). */
export const storageKeys = {
  current: "current",
  releaseManifestKv: (hex: string) => `release:${hex}`,
  releaseManifestR2: (hex: string) => `releases/${hex}/manifest.json`,
  part: (hex: string, index: number) => `releases/${hex}/parts/${index}`,
  indexSegment: (hex: string, name: string, index: number) => `releases/${hex}/index/${name}/${index}`,
  /** The changes from release `sinceHex` to release `hex` (changes-store.ts). */
  changes: (hex: string, sinceHex: string) => `releases/${hex}/changes/${sinceHex}`,
  /** The bytes in release `hex` of the profiles added or changed since `sinceHex`, concatenated in catalog order. */
  changedProfiles: (hex: string, sinceHex: string) => `releases/${hex}/changed-profiles/${sinceHex}`,
  /** The publish and rollback history (release-history.ts). */
  history: "history",
};

/** How many earlier releases stay reachable after a publish (a client mid-download can finish). */
export const KEPT_PREVIOUS_RELEASES = 5;

export const hexOf = (digest: string) => digest.slice("sha256:".length);
