/**
 * A release's profiles in catalog order, read back from what publish uploads: the scope index gives
 * each profile's place, byte range and digest; the parts give its bytes. Parts are read one at a time
 * and each profile is parsed once, so memory stays one part plus the index entries.
 */
import { linesOf, parseScopeLine, type ScopedProfile } from "../../common/catalog/profile-index";
import type { Manifest } from "../../common/catalog/manifest";
import type { Profile } from "../../common/catalog/schema";
import type { ReleaseSource } from "./release-source";

export interface PlacedProfile {
  /** The profile's place in catalog order (the scope index's order), from 0. */
  seq: number;
  entry: ScopedProfile;
  profile: Profile;
  /** The profile's bytes in the document, decoded (valid UTF-8, so encoding it gives them back exactly). */
  text: string;
}

/** Every entry of the scope index, in its order: product key, then funnel key. */
export async function scopeEntries(manifest: Manifest, source: ReleaseSource): Promise<ScopedProfile[]> {
  const scope = manifest.index?.find((index) => index.name === "scope");
  if (!scope) return [];
  const entries: ScopedProfile[] = [];
  const decoder = new TextDecoder();
  for (const segment of scope.segments) {
    const bytes = await source.readIndexSegment("scope", segment.index);
    for (const line of linesOf(decoder.decode(bytes.subarray(0, segment.directory_offset))))
      entries.push(parseScopeLine(line));
  }
  return entries;
}

/** The profiles, in the document's byte order, each with its place in catalog order. */
export async function* placedProfiles(
  manifest: Manifest,
  source: ReleaseSource,
  entries: readonly ScopedProfile[],
): AsyncGenerator<PlacedProfile> {
  const byOffset = entries.map((entry, seq) => ({ entry, seq })).sort((a, b) => a.entry.offset - b.entry.offset);
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let window = new Uint8Array(0);
  let windowStart = 0;
  let nextPart = 0;
  for (const { entry, seq } of byOffset) {
    while (entry.offset + entry.length > windowStart + window.byteLength) {
      const part = manifest.parts[nextPart];
      if (!part) throw new Error(`profile ${entry.id} ends past the document (${manifest.bytes} bytes)`);
      const bytes = await source.readPart(nextPart++);
      // Keep only the bytes from the current profile on: earlier ones are never read again.
      const keepFrom = Math.max(0, Math.min(entry.offset - windowStart, window.byteLength));
      const joined = new Uint8Array(window.byteLength - keepFrom + bytes.byteLength);
      joined.set(window.subarray(keepFrom));
      joined.set(bytes, window.byteLength - keepFrom);
      windowStart += keepFrom;
      window = joined;
    }
    const start = entry.offset - windowStart;
    const text = decoder.decode(window.subarray(start, start + entry.length));
    yield { seq, entry, profile: JSON.parse(text) as Profile, text };
  }
}
