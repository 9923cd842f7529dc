/**
 * Writes one index of a release (src/common/catalog/profile-index.ts has the layout) from its lines in
 * key order: leaf pages of whole lines up to `pageBytes`, cut into segment files of about
 * INDEX_SEGMENT_BYTES, each ending with its directory page. Streaming: memory holds one leaf page
 * and one directory page, whatever the catalog size.
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { asDigest } from "../../../common/catalog/digest";
import type { ReleaseIndex } from "../../../common/catalog/manifest";
import { directoryLine, INDEX_SEGMENT_BYTES, type IndexName } from "../../../common/catalog/profile-index";

type Segment = ReleaseIndex["segments"][number];
const SPACE = 0x20;
const outOfOrder = (name: string, key: string, last: string) =>
  new Error(`${name} index: key ${JSON.stringify(key)} does not sort after ${JSON.stringify(last)}`);

interface OpenSegment {
  fd: number;
  hash: Hash;
  first: string;
  /** Bytes of leaf pages written so far. */
  leafBytes: number;
  directory: string[];
  directoryBytes: number;
}

export class IndexWriter {
  private leaf: Buffer;
  private leafUsed = 0;
  private leafFirst = "";
  private lastKey: string | undefined;
  private readonly lastKeyStore = Buffer.allocUnsafe(64);
  private lastKeyBytes: Buffer = Buffer.alloc(0);
  private segment: OpenSegment | undefined;
  private readonly segments: Segment[] = [];

  constructor(
    private readonly dir: string,
    private readonly name: IndexName,
    private readonly pageBytes: number,
    private readonly segmentBytes = INDEX_SEGMENT_BYTES,
  ) {
    mkdirSync(dir, { recursive: true });
    this.leaf = Buffer.allocUnsafe(pageBytes);
  }

  /** The next line (ASCII, as every index line is), whose key sorts after every key added before. */
  add(key: string, line: string): void {
    if (this.lastKey !== undefined && !(this.lastKey < key)) throw outOfOrder(this.name, key, this.lastKey);
    this.lastKey = key;
    const at = this.room(line.length, () => key);
    this.leafUsed += this.leaf.write(line, at, "latin1");
  }

  /**
   * The same for a line given as bytes, whose key runs up to its first space (the id index's, as
   * the id sort hands them over): copied as they are, no string made but a leaf's first key.
   */
  addBytes(line: Uint8Array): void {
    const keyLength = line.indexOf(SPACE);
    const key = Buffer.from(line.buffer, line.byteOffset, keyLength);
    if (this.lastKeyBytes.length > 0 && Buffer.compare(this.lastKeyBytes, key) >= 0)
      throw outOfOrder(this.name, key.toString("latin1"), this.lastKeyBytes.toString("latin1"));
    this.lastKeyBytes =
      key.length <= this.lastKeyStore.length
        ? this.lastKeyStore.subarray(0, key.copy(this.lastKeyStore))
        : Buffer.from(key);
    const at = this.room(line.length, () => key.toString("latin1"));
    this.leaf.set(line, at);
    this.leafUsed += line.length;
  }

  /** Where the next `length` bytes go in the leaf, which is flushed first when they do not fit. */
  private room(length: number, firstKey: () => string): number {
    if (this.leafUsed > 0 && this.leafUsed + length > this.pageBytes) this.flushLeaf();
    if (this.leafUsed === 0) this.leafFirst = firstKey();
    // A line longer than a page is a page of its own (keys have no length limit).
    if (this.leafUsed + length > this.leaf.length) this.leaf = Buffer.allocUnsafe(length);
    return this.leafUsed;
  }

  /** Closes the last page and segment; the manifest's entry for this index. */
  finish(): ReleaseIndex {
    if (this.leafUsed > 0) this.flushLeaf();
    if (this.segment) this.closeSegment(this.segment);
    if (this.segments.length === 0) throw new Error(`${this.name} index: no entries`);
    return { name: this.name, page_bytes: this.pageBytes, segments: this.segments };
  }

  private flushLeaf(): void {
    if (this.segment && !this.fits(this.segment)) this.closeSegment(this.segment);
    const segment = this.segment ?? this.openSegment(this.leafFirst);
    const entry = directoryLine(this.leafFirst, segment.leafBytes, this.leafUsed);
    this.write(segment, this.leaf.subarray(0, this.leafUsed));
    segment.leafBytes += this.leafUsed;
    segment.directory.push(entry);
    segment.directoryBytes += entry.length;
    this.leafUsed = 0;
  }

  /** Whether the leaf in hand still belongs in `segment`: its leaves and its directory page stay within bounds. */
  private fits(segment: OpenSegment): boolean {
    const entry = directoryLine(this.leafFirst, segment.leafBytes, this.leafUsed);
    return (
      segment.leafBytes + this.leafUsed <= this.segmentBytes && segment.directoryBytes + entry.length <= this.pageBytes
    );
  }

  private openSegment(first: string): OpenSegment {
    const file = path.join(this.dir, String(this.segments.length));
    this.segment = {
      fd: openSync(file, "w"),
      hash: createHash("sha256"),
      first,
      leafBytes: 0,
      directory: [],
      directoryBytes: 0,
    };
    return this.segment;
  }

  private closeSegment(segment: OpenSegment): void {
    this.write(segment, Buffer.from(segment.directory.join(""), "latin1"));
    closeSync(segment.fd);
    this.segments.push({
      index: this.segments.length,
      first: segment.first,
      length: segment.leafBytes + segment.directoryBytes,
      sha256: asDigest(segment.hash.digest("hex")),
      directory_offset: segment.leafBytes,
    });
    this.segment = undefined;
  }

  private write(segment: OpenSegment, bytes: Uint8Array): void {
    segment.hash.update(bytes);
    for (let done = 0; done < bytes.length; ) done += writeSync(segment.fd, bytes, done, bytes.length - done);
  }
}
