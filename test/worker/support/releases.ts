/** The test releases, decoded inside workerd, and publishing them into the real local R2/KV. */
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { expectDefined } from "../../../src/common/expect";
import type { Manifest, ReleaseIndex } from "../../../src/common/catalog/manifest";
import { publishRelease, type PublishResult, type ReleaseStorage } from "../../../src/node/catalog/publish";
import { INDEX_NAMES, type IndexName } from "../../../src/common/catalog/profile-index";
import type { ProvidedRelease, TestReleaseName } from "./provided-releases";

// Read once per runner: the worker project's files share one isolate, which keeps this module.
const answer = await fetch(inject("catalogReleases"));
if (!answer.ok) throw new Error(await answer.text());
const provided = (await answer.json()) as Record<TestReleaseName, ProvidedRelease>;

export interface TestRelease {
  manifest: Manifest;
  parts: Uint8Array[];
  /** Each index's segments. */
  index: Record<IndexName, Uint8Array[]>;
  /** The whole document: the parts, concatenated. */
  document: Uint8Array;
}

export function testRelease(name: TestReleaseName): TestRelease {
  const release = provided[name];
  const parts = release.parts.map(fromBase64);
  const document = new Uint8Array(release.manifest.bytes);
  for (const [index, part] of parts.entries()) document.set(part, manifestPart(release.manifest, index).offset);
  const index = Object.fromEntries(INDEX_NAMES.map((name) => [name, release.index[name].map(fromBase64)])) as Record<
    IndexName,
    Uint8Array[]
  >;
  return { manifest: release.manifest, parts, index, document };
}

/** The manifest's entry for part `index`; throws if the release has no such part. */
export function manifestPart(manifest: Manifest, index: number): Manifest["parts"][number] {
  return expectDefined(manifest.parts[index], `part ${index} in the manifest of ${manifest.release_id}`);
}

/** The bytes of part `index`; throws if the release has no such part. */
export function partBytes(release: TestRelease, index: number): Uint8Array {
  return expectDefined(release.parts[index], `the bytes of part ${index} of ${release.manifest.release_id}`);
}

/** The bytes of segment `index` of the release's `name` index; throws if there is no such segment. */
export function indexSegmentBytes(release: TestRelease, name: IndexName, index: number): Uint8Array {
  return expectDefined(
    release.index[name][index],
    `segment ${index} of the ${name} index of ${release.manifest.release_id}`,
  );
}

/** The manifest's release index; throws for a manifest without one (a release from before lookups). */
export function releaseIndex(manifest: Manifest): ReleaseIndex[] {
  return expectDefined(manifest.index, `an index in the manifest of ${manifest.release_id}`);
}

/** The worker's own bindings, as publish.ts sees them. */
export function workerStorage(): ReleaseStorage {
  return { bucket: env.RELEASES, kv: env.CATALOG_KV, db: env.CATALOG_DB };
}

export function publish(
  release: TestRelease,
  storage: ReleaseStorage = workerStorage(),
  options: Parameters<typeof publishRelease>[2] = {},
): Promise<PublishResult> {
  return publishRelease(
    storage,
    {
      manifest: release.manifest,
      readPart: async (index) => partBytes(release, index),
      readIndexSegment: async (name, index) => indexSegmentBytes(release, name, index),
    },
    options,
  );
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
