/**
 * The changes between two releases, cached in R2 per pair (docs/storage.md): computed once by the
 * streaming merge of release-changes.ts, at publish for the release it replaced and on demand by
 * the worker for any other pair, then read a page at a time by byte offset. Both releases are
 * immutable, so the list is too. Runs in the worker and in Node (publish), over the subset of an
 * R2 binding below.
 *
 * Memory: one scope-index segment (≤ ~4 MiB) of each release while merging, and the list being
 * written (about 220 bytes per changed profile) until it is stored.
 */
import { concatBytes } from "../bytes";
import { hexOf, storageKeys, type Manifest } from "./manifest";
import { linesOf, parseScopeLine, type ScopedProfile } from "./profile-index";
import {
  changeLine,
  mergeChanges,
  parseChangeLine,
  type ChangeCounts,
  type ProfileBytes,
  type ReleaseChange,
} from "./release-changes";

/** The parts of an R2 object the changes store reads (R2ObjectBody satisfies it). */
export interface ChangesObject {
  arrayBuffer(): Promise<ArrayBuffer>;
}
/** The subset of an R2 bucket binding the changes store uses (R2Bucket satisfies it). */
export interface ChangesBucket {
  get(key: string, options?: { range?: { offset: number; length?: number } }): Promise<ChangesObject | null>;
  head(key: string): Promise<{ size: number; customMetadata?: Record<string, string> } | null>;
  put(
    key: string,
    value: Uint8Array,
    options: { customMetadata: Record<string, string>; httpMetadata: { contentType: string } },
  ): Promise<unknown>;
}

/**
 * The changed profiles' bytes are kept only up to this share of the new document's bytes: past it,
 * fetching them costs about as much as the document (and `sync` downloads the document instead).
 */
export const CHANGED_PROFILES_MAX_SHARE = 0.5;

export interface ChangesSummary {
  counts: ChangeCounts;
  /** Total number of changes (the list's length). */
  count: number;
}

export class ReleaseWithoutIndex extends Error {
  constructor(readonly releaseId: string) {
    super(`release ${releaseId} was published without a profile index`);
  }
}

const changesKey = (newer: Manifest, older: Manifest) =>
  storageKeys.changes(hexOf(newer.release_id), hexOf(older.release_id));

/**
 * The counts of the changes from `older` to `newer`, computing and storing the list first unless
 * it is already stored. This is the one call a publish hook needs (webhook payloads, history).
 */
export async function ensureChanges(bucket: ChangesBucket, newer: Manifest, older: Manifest): Promise<ChangesSummary> {
  if (newer.release_id === older.release_id) return { counts: { added: 0, changed: 0, removed: 0 }, count: 0 };
  const key = changesKey(newer, older);
  const bytesKey = storageKeys.changedProfiles(hexOf(newer.release_id), hexOf(older.release_id));
  const stored = await bucket.head(key);
  // Both are written, the bytes first; a list without its bytes (an interrupted write) is made again.
  if (stored?.customMetadata && (await bucket.head(bytesKey))) return summaryOf(stored.customMetadata);
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const counts: ChangeCounts = { added: 0, changed: 0, removed: 0 };
  const fetched: ProfileBytes[] = [];
  let size = 0;
  for await (const change of mergeChanges(scopeEntries(bucket, older), scopeEntries(bucket, newer))) {
    counts[change.change]++;
    if (change.current) fetched.push(change.current);
    const bytes = encoder.encode(changeLine(change));
    chunks.push(bytes);
    size += bytes.length;
  }
  // The bytes first: a stored list means both are complete. Past half the document, a client
  // downloads the document instead, so they are not stored (an empty object says so).
  const share = fetched.reduce((sum, p) => sum + p.length, 0) / newer.bytes;
  const tooLarge = share > CHANGED_PROFILES_MAX_SHARE;
  const profiles = tooLarge ? new Uint8Array() : await profileBytesOf(bucket, newer, fetched);
  await bucket.put(bytesKey, profiles, {
    customMetadata: { profiles: String(fetched.length), stored: String(!tooLarge) },
    httpMetadata: { contentType: "application/octet-stream" },
  });
  const metadata = {
    added: String(counts.added),
    changed: String(counts.changed),
    removed: String(counts.removed),
  };
  await bucket.put(key, concatBytes(chunks, size), {
    customMetadata: metadata,
    httpMetadata: { contentType: "text/plain" },
  });
  return summaryOf(metadata);
}

/**
 * The bytes of `profiles` (in document order) in `manifest`'s document, concatenated: one ranged
 * read per part that holds any of them, from the first to the last byte of them in it.
 */
async function profileBytesOf(
  bucket: ChangesBucket,
  manifest: Manifest,
  profiles: ProfileBytes[],
): Promise<Uint8Array> {
  const total = profiles.reduce((sum, p) => sum + p.length, 0);
  const out = new Uint8Array(total);
  const hex = hexOf(manifest.release_id);
  let written = 0;
  let next = 0;
  const at = (i: number) => {
    const profile = profiles[i];
    if (!profile) throw new Error(`changed profile ${i} of ${profiles.length} is out of range`);
    return profile;
  };
  for (const part of manifest.parts) {
    const end = part.offset + part.length;
    // The profiles that have bytes in this part: from `next` while they start before its end.
    let last = next;
    while (last < profiles.length && at(last).offset < end) last++;
    if (last === next) continue;
    const from = Math.max(part.offset, at(next).offset);
    const to = Math.min(end, at(last - 1).offset + at(last - 1).length);
    const key = storageKeys.part(hex, part.index);
    const object = await bucket.get(key, { range: { offset: from - part.offset, length: to - from } });
    if (!object) throw new Error(`${key} is missing from R2`);
    const bytes = new Uint8Array(await object.arrayBuffer());
    for (let i = next; i < last; i++) {
      const p = at(i);
      const slice = bytes.subarray(Math.max(p.offset, from) - from, Math.min(p.offset + p.length, to) - from);
      out.set(slice, written);
      written += slice.length;
    }
    // A profile that goes on into the next part is taken up again there.
    const tail = at(last - 1);
    next = tail.offset + tail.length > end ? last - 1 : last;
  }
  if (written !== total) throw new Error(`read ${written} bytes of changed profiles, expected ${total}`);
  return out;
}

function summaryOf(metadata: Record<string, string>): ChangesSummary {
  const counts = {
    added: Number(metadata.added),
    changed: Number(metadata.changed),
    removed: Number(metadata.removed),
  };
  return { counts, count: counts.added + counts.changed + counts.removed };
}

export interface ChangesPage {
  changes: ReleaseChange[];
  /** The byte offset the next page starts at, or null after the last change. */
  next: number | null;
}

export class ChangesCursorInvalid extends Error {}

/** Up to `limit` changes from byte `from` of the stored list (ensureChanges first); `from` must start a line. */
export async function readChangesPage(
  bucket: ChangesBucket,
  newer: Manifest,
  older: Manifest,
  from: number,
  limit: number,
): Promise<ChangesPage> {
  if (newer.release_id === older.release_id) {
    if (from !== 0) throw new ChangesCursorInvalid("the list is empty");
    return { changes: [], next: null };
  }
  const key = changesKey(newer, older);
  const head = await bucket.head(key);
  if (!head) throw new Error(`${key} is not stored: call ensureChanges first`);
  if (from > head.size) throw new ChangesCursorInvalid(`it points past the end of the list`);
  if (from === head.size) return { changes: [], next: null };
  if (from > 0) {
    const before = await bucket.get(key, { range: { offset: from - 1, length: 1 } });
    if (!before || new Uint8Array(await before.arrayBuffer())[0] !== NEWLINE)
      throw new ChangesCursorInvalid("it does not point at the start of a change");
  }
  const changes: ReleaseChange[] = [];
  let offset = from;
  // Windows of the list until the page is full; a line longer than a window widens the next one.
  for (let window = PAGE_WINDOW_BYTES; offset < head.size; ) {
    const object = await bucket.get(key, { range: { offset, length: Math.min(window, head.size - offset) } });
    if (!object) throw new Error(`${key} vanished while being read`);
    const text = new TextDecoder().decode(await object.arrayBuffer());
    const whole = text.lastIndexOf("\n") + 1;
    if (whole === 0) {
      window *= 2;
      continue;
    }
    for (const line of linesOf(text.slice(0, whole))) {
      if (changes.length === limit) return { changes, next: offset };
      changes.push(parseChangeLine(line));
      offset += line.length + 1;
    }
  }
  return { changes, next: null };
}

const NEWLINE = 0x0a;
/** About a thousand changes: one read serves a page of the largest size. */
const PAGE_WINDOW_BYTES = 256 * 1024;

/** Every entry of a release's scope index in catalog order, one segment's leaf pages at a time. */
async function* scopeEntries(bucket: ChangesBucket, manifest: Manifest): AsyncGenerator<ScopedProfile> {
  const index = manifest.index?.find((candidate) => candidate.name === "scope");
  if (!index) throw new ReleaseWithoutIndex(manifest.release_id);
  const hex = hexOf(manifest.release_id);
  for (const segment of index.segments) {
    const key = storageKeys.indexSegment(hex, "scope", segment.index);
    const object = await bucket.get(key, { range: { offset: 0, length: segment.directory_offset } });
    if (!object) throw new Error(`${key} is missing from R2`);
    for (const line of linesOf(new TextDecoder().decode(await object.arrayBuffer()))) yield parseScopeLine(line);
  }
}
