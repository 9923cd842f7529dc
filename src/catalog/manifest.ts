/**
 * A release's manifest and the `current` pointer (shared/DESIGN.md, "Parts").
 * The manifest is written next to the parts in R2 and as `release:<hex>` in KV; `current` is the
 * only mutable record.
 */
import { z } from "@hono/zod-openapi";
import { ApiContract, Sha256Digest } from "./schema";

export const PartEntry = z
  .strictObject({
    index: z.int().min(0),
    offset: z.int().min(0),
    length: z.int().min(1),
    sha256: Sha256Digest,
  })
  .openapi("PartEntry");

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
};

/** How many earlier releases stay reachable after a publish (a client mid-download can finish). */
export const KEPT_PREVIOUS_RELEASES = 5;

export const hexOf = (digest: string) => digest.slice("sha256:".length);
