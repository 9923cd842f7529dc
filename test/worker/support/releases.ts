/** The test releases, decoded inside workerd, and publishing them into the real local R2/KV. */
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import type { Manifest } from "../../../src/common/catalog/manifest";
import { publishRelease, type PublishResult, type ReleaseStorage } from "../../../src/node/catalog/publish";
import { INDEX_NAMES, type IndexName } from "../../../src/common/catalog/profile-index";
import type { TestReleaseName } from "./provided-releases";

export interface TestRelease {
  manifest: Manifest;
  parts: Uint8Array[];
  /** Each index's segments. */
  index: Record<IndexName, Uint8Array[]>;
  /** The whole document: the parts, concatenated. */
  document: Uint8Array;
}

export function testRelease(name: TestReleaseName): TestRelease {
  const provided = inject("catalogReleases")[name];
  const parts = provided.parts.map(fromBase64);
  const document = new Uint8Array(provided.manifest.bytes);
  for (const [index, part] of parts.entries()) document.set(part, provided.manifest.parts[index]!.offset);
  const index = Object.fromEntries(INDEX_NAMES.map((name) => [name, provided.index[name].map(fromBase64)])) as Record<
    IndexName,
    Uint8Array[]
  >;
  return { manifest: provided.manifest, parts, index, document };
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
      readPart: async (index) => release.parts[index]!,
      readIndexSegment: async (name, index) => release.index[name][index]!,
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
