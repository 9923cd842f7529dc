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

/** One step of writing the new document's `data` between `[` and `]`. */
export type Step = { kind: "old"; start: number; end: number } | { kind: "comma" } | { kind: "fetched"; cut: number };

/**
 * The new document's bytes between `[` and `]` as steps: byte ranges of the old document (in
 * increasing order, so one sequential read serves them), commas, and the fetched profiles. Null
 * when the old document's unchanged runs cannot make up the new document's (the local copy is not
 * the release the change list was computed against).
 */
export function rebuildSteps(
  old: { cuts: readonly Cut[]; dataStart: number; bytes: number },
  now: { cuts: readonly Cut[]; dataStart: number; bytes: number },
): Step[] | null {
  const runs = unchangedRuns(old.cuts, old.dataStart, old.bytes);
  const steps: Step[] = [];
  const k = new UnchangedCursor(runs);
  let unchangedSeen = false;
  for (const [i, item] of newItems(now.cuts, now.dataStart, now.bytes).entries()) {
    if (i > 0) steps.push({ kind: "comma" });
    if (item.kind === "fetched") {
      steps.push(item);
      continue;
    }
    // Two runs of the new document are apart by a fetched profile: K's comma between them goes.
    if (unchangedSeen && !k.skipComma()) return null;
    unchangedSeen = true;
    if (!k.take(item.length, steps)) return null;
  }
  return k.finished ? steps : null;
}

/** A position in K: the old document's unchanged runs joined by commas. */
class UnchangedCursor {
  private run = 0;
  private position: number;
  /** The next byte of K is the comma between two runs (no byte of the old document). */
  private between = false;

  constructor(private readonly runs: readonly Span[]) {
    this.position = runs[0]?.start ?? 0;
  }

  take(length: number, steps: Step[]): boolean {
    let left = length;
    while (left > 0) {
      if (this.between) {
        this.between = false;
        steps.push({ kind: "comma" });
        left--;
        continue;
      }
      const span = this.runs[this.run];
      if (!span) return false;
      if (this.position === span.end) {
        if (!this.nextRun()) return false;
        continue;
      }
      const end = Math.min(span.end, this.position + left);
      steps.push({ kind: "old", start: this.position, end });
      left -= end - this.position;
      this.position = end;
    }
    return true;
  }

  /** Skips one byte of K, a comma: between two runs, or within one (a profile was added there). */
  skipComma(): boolean {
    if (this.between) {
      this.between = false;
      return true;
    }
    const span = this.runs[this.run];
    if (!span) return false;
    if (this.position === span.end) {
      if (!this.nextRun()) return false;
      this.between = false;
      return true;
    }
    this.position++; // the digests of the rebuilt document check it was a comma
    return true;
  }

  get finished(): boolean {
    const last = this.runs.at(-1);
    return !this.between && (!last || (this.run === this.runs.length - 1 && this.position === last.end));
  }

  private nextRun(): boolean {
    const next = this.runs[this.run + 1];
    if (!next) return false;
    this.run++;
    this.position = next.start;
    this.between = true;
    return true;
  }
}
