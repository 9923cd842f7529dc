/**
 * The worker's reads of release metadata from KV, and the one write of `current`.
 * - A published manifest never changes (published_at is set once), so the isolate keeps the ones
 *   it has read — except one without an index: publishing its build again adds the index (see
 *   publish.ts), which every isolate must see.
 * - `current`, the one mutable record, is read from KV at most once a second per isolate: a busy
 *   isolate pays one KV read a second for it instead of one per request. A publish or rollback is
 *   served by every isolate within that second — on Cloudflare, KV itself takes up to 60 s to show
 *   a write at other locations, so the second adds no staleness the design does not already
 *   accept — and at once by the isolate that wrote it. Clients never mix releases either way: the
 *   part URLs they page through are pinned to a release id.
 */
import { CurrentPointer, Manifest, storageKeys } from "./manifest";
import { isolateMap } from "../isolate-memory";
import { retryTransient } from "../transient";

/** The KV reads the store needs (KVNamespace satisfies it). */
export interface ManifestKv {
  get(key: string): Promise<string | null>;
}

const MANIFESTS_KEPT_IN_ISOLATE = 32;
const manifests = isolateMap<string, Manifest>();

export const CURRENT_POINTER_TTL_MS = 1_000;
/** The pointer as last read or written by this isolate; `null` (nothing published) is never kept. */
const recentPointers = isolateMap<"current", { pointer: CurrentPointer; until: number }>();

/** `current` as KV holds it now, never from memory: what publish and rollback build on. */
export async function readCurrent(kv: ManifestKv): Promise<CurrentPointer | null> {
  const text = await retryTransient(() => kv.get(storageKeys.current));
  return text === null ? null : CurrentPointer.parse(JSON.parse(text));
}

/** `current` for serving: from this isolate's memory when it was read or written less than a second ago. */
export async function readCurrentPointer(kv: ManifestKv, now = Date.now()): Promise<CurrentPointer | null> {
  const recent = recentPointers.get("current");
  if (recent && recent.until > now) return recent.pointer;
  const pointer = await readCurrent(kv);
  if (pointer) recentPointers.set("current", { pointer, until: now + CURRENT_POINTER_TTL_MS });
  else recentPointers.delete("current");
  return pointer;
}

/** Flips `current` (publish, rollback); this isolate serves the new pointer from its next request. */
export async function writeCurrentPointer(
  kv: ManifestKv & { put(key: string, value: string): Promise<void> },
  pointer: CurrentPointer,
): Promise<void> {
  recentPointers.delete("current");
  await kv.put(storageKeys.current, JSON.stringify(pointer));
  recentPointers.set("current", { pointer, until: Date.now() + CURRENT_POINTER_TTL_MS });
}

/** The manifest of release `hex`, or null when no such release was published here. */
export async function readManifest(kv: ManifestKv, hex: string): Promise<Manifest | null> {
  const cached = manifests.get(hex);
  if (cached) return cached;
  const text = await retryTransient(() => kv.get(storageKeys.releaseManifestKv(hex)));
  if (text === null) return null;
  const manifest = Manifest.parse(JSON.parse(text));
  if (!manifest.index) return manifest;
  const oldest = manifests.keys().next();
  if (manifests.size >= MANIFESTS_KEPT_IN_ISOLATE && !oldest.done) manifests.delete(oldest.value);
  manifests.set(hex, manifest);
  return manifest;
}
