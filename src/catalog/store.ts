/**
 * The worker's reads of release metadata from KV. A published manifest never changes
 * (published_at is set once), so the isolate keeps the ones it has read; `current` is the one
 * mutable record and is read from KV on every request, never cached here.
 */
import { CurrentPointer, Manifest, storageKeys } from "./manifest";

/** The KV reads the store needs (KVNamespace satisfies it). */
export interface ManifestKv {
  get(key: string): Promise<string | null>;
}

const MANIFESTS_KEPT_IN_ISOLATE = 32;
const manifests = new Map<string, Manifest>();

export async function readCurrentPointer(kv: ManifestKv): Promise<CurrentPointer | null> {
  const text = await kv.get(storageKeys.current);
  return text === null ? null : CurrentPointer.parse(JSON.parse(text));
}

/** The manifest of release `hex`, or null when no such release was published here. */
export async function readManifest(kv: ManifestKv, hex: string): Promise<Manifest | null> {
  const cached = manifests.get(hex);
  if (cached) return cached;
  const text = await kv.get(storageKeys.releaseManifestKv(hex));
  if (text === null) return null;
  const manifest = Manifest.parse(JSON.parse(text));
  if (manifests.size >= MANIFESTS_KEPT_IN_ISOLATE) manifests.delete(manifests.keys().next().value!);
  manifests.set(hex, manifest);
  return manifest;
}
