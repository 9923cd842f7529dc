/**
 * How `sync` rebuilds a release's document from the previous one (pure). Both documents are
 * `<prefix>[e1,e2,…]}` with the profiles in catalog order, and every profile the change list does
 * not name is byte-identical in both and in the same order. So:
 * - the old document minus its removed and changed profiles leaves runs of unchanged profiles;
 *   joined by commas they are K, the unchanged profiles in order;
 * - the new document is `[` + its items joined by commas + `]`, an item being either a run of K
 *   (its length known from where the new document's added and changed profiles are) or one of
 *   those profiles.
 */

/** Where a profile is in a document. */
export interface Cut {
  offset: number;
  length: number;
}

/** A run of unchanged profiles in the old document: bytes [start, end). */
export interface Span {
  start: number;
  end: number;
}

export type Item = { kind: "unchanged"; length: number } | { kind: "fetched"; cut: number };

/**
 * The runs of unchanged profiles around `cuts` (sorted by offset): each run is `(start, end)`
 * between the comma after the previous cut (or `[`) and the comma before the next cut (or `]`).
 * `dataStart` is where `[` is; the document ends with `]}`.
 */
export function unchangedRuns(cuts: readonly Cut[], dataStart: number, documentBytes: number): Span[] {
  const runs: Span[] = [];
  const close = documentBytes - 2;
  for (let i = 0; i <= cuts.length; i++) {
    const previous = cuts[i - 1];
    const next = cuts[i];
    const start = previous ? previous.offset + previous.length + 1 : dataStart + 1;
    const end = next ? next.offset - 1 : close;
    if (end > start) runs.push({ start, end });
  }
  return runs;
}

/** The new document's items in order, from where its fetched profiles are (`cuts`, sorted). */
export function newItems(cuts: readonly Cut[], dataStart: number, documentBytes: number): Item[] {
  const items: Item[] = [];
  const runs = unchangedRuns(cuts, dataStart, documentBytes);
  let run = 0;
  for (let i = 0; i <= cuts.length; i++) {
    const previous = cuts[i - 1];
    const start = previous ? previous.offset + previous.length + 1 : dataStart + 1;
    const span = runs[run];
    if (span && span.start === start) {
      items.push({ kind: "unchanged", length: span.end - span.start });
      run++;
    }
    if (i < cuts.length) items.push({ kind: "fetched", cut: i });
  }
  return items;
}
