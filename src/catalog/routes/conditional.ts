/**
 * Conditional request headers (RFC 9110 §13) against the one strong ETag a response has. Pure.
 */
const ENTITY_TAG = /(W\/)?"[^"]*"/g;

/** RFC 9110 §13.1.2: true when If-None-Match matches, so a GET/HEAD is answered 304 (weak comparison). */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  return [...header.matchAll(ENTITY_TAG)].some(([tag]) => tag.replace(/^W\//, "") === etag);
}

/**
 * RFC 9110 §13.1.5: a Range is honoured only while If-Range still names the current
 * representation, compared strongly. An HTTP-date never matches: no Last-Modified is sent.
 */
export function ifRangeAllowsRange(header: string | undefined, etag: string): boolean {
  return header === undefined || header.trim() === etag;
}
