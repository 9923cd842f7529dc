/**
 * The releases the worker tests publish, built from data/profiles by the real build before the
 * tests start (catalog-releases.global-setup.ts) and served to workerd from 127.0.0.1.
 */
import type { Manifest } from "../../../src/common/catalog/manifest";
import type { IndexName } from "../../../src/common/catalog/profile-index";

export interface ProvidedRelease {
  manifest: Manifest;
  /** Each part's bytes, base64. */
  parts: string[];
  /** Each index segment's bytes, base64. */
  index: Record<IndexName, string[]>;
}

/**
 * base: every sample profile; smaller / smallest: one / two profiles fewer (different releases);
 * relaid: the same release as base cut with another part size (a layout that must be refused);
 * wide / wideSmallPages: the samples plus 250 / 120 funnels of WIDE_PRODUCT, with 16 KiB / small
 * index pages (a product listing over many pages, leaves and segments); edited: base with the
 * changes EDITED describes (sample files by sorted position); regraded: base with REGRADED's grades
 * changed; generated / generatedNext: varied
 * generated catalogs (seeds 7 and 8) for the queries.
 */
export type TestReleaseName =
  | "base"
  | "smaller"
  | "smallest"
  | "relaid"
  | "wide"
  | "wideSmallPages"
  | "edited"
  | "regraded"
  | "generated"
  | "generatedNext";
export const EDITED = { retested: [0, 5, 10, 25], removed: [3, 4, 20], added: 2 };
/** regraded: base with these sample profiles (by sorted position) given another grade. */
export const REGRADED = [0, 5, 10];
export const GENERATED_PROFILES = 400;
export const WIDE_PRODUCT = { key: "many-funnels-api", name: "Many Funnels API" };

/** Small parts, so that parts end inside profiles and inside multi-byte UTF-8 characters. */
export const TEST_PART_BYTES = 7919;
export const RELAID_PART_BYTES = 4096;
/**
 * The generated catalogs' parts (queries, history, watches): 64 KiB, 32 parts for the 2 MB of 400
 * profiles. The small parts' edge cases are the other releases'; at 7919 bytes these were 259 R2
 * objects, and each of the many publishes of these releases took twice as long (1.25 -> 0.6 s).
 */
export const GENERATED_PART_BYTES = 64 * 1024;
/** Small index pages too, so that lookups cross leaves and segments (a page holds one or two entries). */
export const TEST_INDEX_PAGE_BYTES = 400;

declare module "vitest" {
  export interface ProvidedContext {
    /** The origin that serves the releases: a Record<TestReleaseName, ProvidedRelease>, JSON. */
    catalogReleases: string;
  }
}
