/**
 * Part layout of a document (docs/contract.md, "Document and digests"): consecutive byte ranges of `part_bytes`,
 * the last one shorter. Pure, shared by the build script and the worker.
 */
export interface PartSpan {
  index: number;
  offset: number;
  length: number;
}

/** The parts that hold bytes [start, end] (inclusive), with the slice of each part to read. */
export function partSlicesFor(
  parts: readonly PartSpan[],
  start: number,
  end: number,
): { index: number; offset: number; length: number }[] {
  const slices = [];
  for (const part of parts) {
    const partEnd = part.offset + part.length - 1;
    if (partEnd < start || part.offset > end) continue;
    const from = Math.max(start, part.offset);
    const to = Math.min(end, partEnd);
    slices.push({ index: part.index, offset: from - part.offset, length: to - from + 1 });
  }
  return slices;
}

export const DEFAULT_PART_BYTES = 4 * 1024 * 1024;
