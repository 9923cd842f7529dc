/**
 * Reads a release's index (src/common/catalog/profile-index.ts) from R2, a page at a time by range, never
 * an index object whole. A lookup is: the segment from the manifest's root, that segment's
 * directory page, one leaf page: at most two small R2 reads, whatever the catalog size. Directory
 * pages are kept in isolate memory (immutable: the key names the release), at most
 * DIRECTORIES_KEPT of them, so a busy isolate pays one read per lookup: the leaf.
 */
import { catalogMiss } from "./service/errors";
import { hexOf, storageKeys, type Manifest, type ReleaseIndex } from "../../common/catalog/manifest";
import {
  lastAtOrBefore,
  linesOf,
  parseDirectory,
  parseLeafLine,
  type Directory,
  type IndexedProfile,
  type IndexName,
} from "../../common/catalog/profile-index";
import { isolateMap } from "../../common/isolate-memory";
import { retryTransient } from "../../common/transient";

/** Read from ≤ 16 KiB each at the default page size: about 2 MiB of isolate memory at most, parsed. */
const DIRECTORIES_KEPT = 64;
const directories = isolateMap<string, Directory>();
const segmentFirsts = new WeakMap<ReleaseIndex, string[]>();

/** A leaf page's place: segment `segment` of the index, leaf `leaf` of its directory. */
export interface LeafPosition {
  segment: number;
  leaf: number;
}

/** One index of a release, ready for lookups. */
export class IndexReader {
  private constructor(
    private readonly bucket: R2Bucket,
    private readonly manifest: Manifest,
    readonly name: IndexName,
    private readonly index: ReleaseIndex,
  ) {}

  /** The release's index `name`; a release published before indexes existed has none (404). */
  static of(bucket: R2Bucket, manifest: Manifest, name: IndexName): IndexReader {
    const index = manifest.index?.find((candidate) => candidate.name === name);
    if (!index) {
      throw catalogMiss({ kind: "release_not_indexed", releaseId: manifest.release_id });
    }
    return new IndexReader(bucket, manifest, name, index);
  }

  /** The entry whose key is exactly `key`, or undefined. */
  async find(key: string): Promise<IndexedProfile | undefined> {
    const start = await this.leafAtOrBefore(key);
    if (!start) return undefined;
    const prefix = `${key} `;
    const line = (await this.leafLines(start)).find((candidate) => candidate.startsWith(prefix));
    return line === undefined ? undefined : parseLeafLine(this.name, line);
  }

  /** The leaf that holds `key` if any entry does: the last leaf whose first key is ≤ `key`. */
  async leafAtOrBefore(key: string): Promise<LeafPosition | undefined> {
    const segment = lastAtOrBefore(this.firsts(), key);
    if (segment < 0) return undefined;
    const leaf = lastAtOrBefore((await this.directory(segment)).first, key);
    return leaf < 0 ? undefined : { segment, leaf };
  }

  /** The leaf after `position` and its first key, or undefined at the end of the index. */
  async next(position: LeafPosition): Promise<{ position: LeafPosition; first: string } | undefined> {
    const directory = await this.directory(position.segment);
    const first = directory.first[position.leaf + 1];
    if (first !== undefined) return { position: { segment: position.segment, leaf: position.leaf + 1 }, first };
    const segment = position.segment + 1;
    const next = this.index.segments[segment];
    return next ? { position: { segment, leaf: 0 }, first: next.first } : undefined;
  }

  async leafLines(position: LeafPosition): Promise<string[]> {
    const directory = await this.directory(position.segment);
    const offset = directory.offset[position.leaf];
    const length = directory.length[position.leaf];
    if (offset === undefined || length === undefined)
      throw new Error(`index segment ${position.segment} has no leaf ${position.leaf}`);
    return linesOf(await this.readPage(position.segment, offset, length));
  }

  private firsts(): string[] {
    let firsts = segmentFirsts.get(this.index);
    if (!firsts) {
      firsts = this.index.segments.map((segment) => segment.first);
      segmentFirsts.set(this.index, firsts);
    }
    return firsts;
  }

  private async directory(segment: number): Promise<Directory> {
    const key = this.segmentKey(segment);
    const cached = directories.get(key);
    if (cached) {
      // Least recently used goes first: a hit moves to the back.
      directories.delete(key);
      directories.set(key, cached);
      return cached;
    }
    const entry = this.index.segments[segment];
    if (!entry) throw new Error(`the index has no segment ${segment}`);
    const { length, directory_offset } = entry;
    const directory = parseDirectory(await this.readPage(segment, directory_offset, length - directory_offset));
    const oldest = directories.keys().next();
    if (directories.size >= DIRECTORIES_KEPT && !oldest.done) directories.delete(oldest.value);
    directories.set(key, directory);
    return directory;
  }

  /** One page, read by range; a page is small and bounded (page_bytes), so reading it whole is fine. */
  private async readPage(segment: number, offset: number, length: number): Promise<string> {
    const key = this.segmentKey(segment);
    const object = await retryTransient(() => this.bucket.get(key, { range: { offset, length } }));
    if (!object) {
      console.error(JSON.stringify({ level: "error", message: `R2 object ${key} is missing` }));
      throw catalogMiss({ kind: "storage_unreadable", releaseId: this.manifest.release_id, what: "index" });
    }
    return object.text();
  }

  private segmentKey(segment: number): string {
    return storageKeys.indexSegment(hexOf(this.manifest.release_id), this.name, segment);
  }
}
