/** What publish reads a built release from; its own module, so the publish steps share it without a cycle. */
import type { IndexName } from "../../common/catalog/profile-index";

/** A built release: its manifest and a way to read each part's and index segment's bytes. */
export interface ReleaseSource {
  manifest: unknown;
  readPart(index: number): Promise<Uint8Array>;
  readIndexSegment(name: IndexName, index: number): Promise<Uint8Array>;
}
