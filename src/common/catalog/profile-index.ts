/**
 * The release index (docs/contract.md "Release index"): where each profile's bytes are in the document, by
 * scope and by profile id, so the worker serves one profile without reading a part or the index
 * whole. Shared by the build (writes it) and the worker (reads it); pure.
 *
 * Layout, modelled on PMTiles (a root directory, then at most one leaf directory, read by range)
 * with every level bounded: an index is a list of segment objects of at most ~4 MiB; a segment is
 * its leaf pages, then one directory page; the manifest's `index[].segments` is the root (one
 * entry per segment). Pages hold whole lines of at most `page_bytes` (a single longer line is a
 * page of its own) and are sorted by key, so a lookup is: root (in the manifest) → the segment's
 * directory page → one leaf page → the profile's bytes.
 *
 * Lines (ASCII: keys are lowercase-hyphenated, ids [a-z0-9], digests hex):
 *   scope leaf  `<product_key> <funnel_key> <id> <offset> <length> <sha256 hex>\n`
 *   id leaf     `<id> <offset> <length> <sha256 hex>\n`
 *   directory   `<first key of the leaf> <leaf offset> <leaf length>\n`
 * `offset`/`length` locate the profile's RFC 8785 bytes in the document. A scope key is
 * `<product_key> <funnel_key>`: a space sorts below every character a key may hold, so plain
 * string order of the keys is the document's (product, funnel) order.
 */
export const INDEX_NAMES = ["scope", "id"] as const;
export type IndexName = (typeof INDEX_NAMES)[number];

export const DEFAULT_INDEX_PAGE_BYTES = 16 * 1024;
/** A segment closes once its leaves reach this size (or its directory page is full). */
export const INDEX_SEGMENT_BYTES = 4 * 1024 * 1024;

export interface IndexedProfile {
  /** Absent in an entry of the id index, which does not repeat the scope. */
  productKey?: string;
  funnelKey?: string;
  id: string;
  /** Where the profile's bytes are in the document. */
  offset: number;
  length: number;
  /** Lowercase hex SHA-256 of the profile's bytes. */
  sha256: string;
}
export type ScopedProfile = IndexedProfile & { productKey: string; funnelKey: string };

export const scopeKey = (productKey: string, funnelKey: string) => `${productKey} ${funnelKey}`;

/** The scope index's line of a profile; its key is `scopeKey(productKey, funnelKey)`. */
export const scopeLine = (p: ScopedProfile) =>
  `${p.productKey} ${p.funnelKey} ${p.id} ${p.offset} ${p.length} ${p.sha256}\n`;
/** The id index's line of a profile; its key is the id. */
export const idLine = (p: IndexedProfile) => `${p.id} ${p.offset} ${p.length} ${p.sha256}\n`;

export function parseScopeLine(line: string): ScopedProfile {
  const fields = line.split(" ");
  if (fields.length !== 6) throw new IndexFormatError(`a scope index line has ${fields.length} fields, expected 6`);
  const [productKey, funnelKey, id, offset, length, sha256] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return { productKey, funnelKey, id, offset: Number(offset), length: Number(length), sha256 };
}

export function parseIdLine(line: string): IndexedProfile {
  const fields = line.split(" ");
  if (fields.length !== 4) throw new IndexFormatError(`an id index line has ${fields.length} fields, expected 4`);
  const [id, offset, length, sha256] = fields as [string, string, string, string];
  return { id, offset: Number(offset), length: Number(length), sha256 };
}

export const parseLeafLine = (name: IndexName, line: string): IndexedProfile =>
  name === "scope" ? parseScopeLine(line) : parseIdLine(line);

export const directoryLine = (first: string, offset: number, length: number) => `${first} ${offset} ${length}\n`;

/** A directory page, parsed: leaf `i` starts with key `first[i]` and is at `offset[i]`, `length[i]` in the segment. */
export interface Directory {
  first: string[];
  offset: number[];
  length: number[];
}

export function parseDirectory(text: string): Directory {
  const directory: Directory = { first: [], offset: [], length: [] };
  for (const line of linesOf(text)) {
    const length = line.lastIndexOf(" ");
    const offset = line.lastIndexOf(" ", length - 1);
    if (offset <= 0) throw new IndexFormatError("a directory line needs a key, an offset and a length");
    directory.first.push(line.slice(0, offset));
    directory.offset.push(Number(line.slice(offset + 1, length)));
    directory.length.push(Number(line.slice(length + 1)));
  }
  return directory;
}

/** The lines of a page, without their newlines. */
export function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Position of the last of `sorted` that is ≤ `key`, or -1 when `key` sorts before them all. */
export function lastAtOrBefore(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    // mid is in range: `?? key` only satisfies the type.
    if ((sorted[mid] ?? key) <= key) low = mid + 1;
    else high = mid - 1;
  }
  return high;
}

export class IndexFormatError extends Error {}
