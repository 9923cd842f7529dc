/**
 * The half-open range [prefix, upper) of the strings that start with `prefix`, for an index range
 * scan in SQLite. SQLite's BINARY collation compares UTF-8 bytes, which order like code points,
 * so the bound is the prefix with its last code point raised by one: it sorts above the prefix
 * followed by any character at all, including those outside the BMP (`prefix + U+FFFF` did not).
 */
const HIGH_SURROGATE_FIRST = 0xd800;
const SURROGATE_END = 0xe000;
const LAST_CODE_POINT = 0x10ffff;

/** The exclusive upper bound, or null when every longer string starts with the prefix (no bound needed). */
export function prefixUpperBound(prefix: string): string | null {
  const codePoints = [...prefix];
  while (codePoints.length > 0) {
    const last = codePoints.pop() ?? "";
    const next = (last.codePointAt(0) ?? LAST_CODE_POINT) + 1;
    if (next <= LAST_CODE_POINT) {
      // Surrogates are no characters of their own: the next one after U+D7FF is U+E000.
      return codePoints.join("") + String.fromCodePoint(next === HIGH_SURROGATE_FIRST ? SURROGATE_END : next);
    }
  }
  return null;
}
