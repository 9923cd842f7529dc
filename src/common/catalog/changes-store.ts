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
import { hexOf, storageKeys, type Manifest } from "./manifest";
import { linesOf, parseScopeLine, type ScopedProfile } from "./profile-index";
import { changeLine, mergeChanges, parseChangeLine, type ChangeCounts, type ReleaseChange } from "./release-changes";

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
  const stored = await bucket.head(key);
  if (stored?.customMetadata) return summaryOf(stored.customMetadata);
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const counts: ChangeCounts = { added: 0, changed: 0, removed: 0 };
  let size = 0;
  for await (const change of mergeChanges(scopeEntries(bucket, older), scopeEntries(bucket, newer))) {
    counts[change.change]++;
    const bytes = encoder.encode(changeLine(change));
    chunks.push(bytes);
    size += bytes.length;
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  const metadata = {
    added: String(counts.added),
    changed: String(counts.changed),
    removed: String(counts.removed),
  };
  await bucket.put(key, body, { customMetadata: metadata, httpMetadata: { contentType: "text/plain" } });
  return summaryOf(metadata);
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
