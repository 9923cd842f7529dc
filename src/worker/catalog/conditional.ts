/**
 * Conditional request headers (RFC 9110 §13) against the one strong ETag a response has. Pure.
 */
import { Problem } from "../http/problem";

const ENTITY_TAG = /(W\/)?"[^"]*"/g;

/**
 * RFC 9110 §13.1.1: If-Match holds for `*` or a listed tag equal to the ETag under strong
 * comparison (a weak tag never matches); when it fails the answer is 412, evaluated before
 * If-None-Match and Range (§13.2.2). Only a tag list that parses can hold.
 */
export function requireIfMatch(header: string | undefined, etag: string): void {
  if (ifMatchHolds(header, etag)) return;
  throw new Problem("precondition_failed", ifMatchFailedDetail(etag));
}

export const ifMatchFailedDetail = (etag: string) =>
  `If-Match names no tag of the current representation, whose ETag is ${etag} (strong comparison, RFC 9110 §13.1.1).`;

/** RFC 9110 §13.1.1: whether If-Match holds (absent, `*`, or a strongly equal listed tag), without throwing. */
export function ifMatchHolds(header: string | undefined, etag: string): boolean {
  if (header === undefined || header.trim() === "*") return true;
  return [...header.matchAll(ENTITY_TAG)].some(([tag]) => tag === etag);
}

/** RFC 9110 §13.1.2: true when If-None-Match matches, so a GET/HEAD is answered 304 (weak comparison). */
function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  return [...header.matchAll(ENTITY_TAG)].some(([tag]) => tag.replace(/^W\//, "") === etag);
}

/**
 * The one conditional GET of every route with an ETag: the 304 when If-None-Match names it
 * (RFC 9110 §13.1.2), repeating the validators and headers its 200 would carry (§15.4.5); else
 * null, and the route answers in full.
 */
export function notModified(ifNoneMatch: string | undefined, etag: string, headers: HeadersInit): Response | null {
  return ifNoneMatchMatches(ifNoneMatch, etag) ? new Response(null, { status: 304, headers }) : null;
}

/**
 * RFC 9110 §13.1.5: a Range is honoured only while If-Range still names the current
 * representation, compared strongly. An HTTP-date never matches: no Last-Modified is sent.
 */
export function ifRangeAllowsRange(header: string | undefined, etag: string): boolean {
  return header === undefined || header.trim() === etag;
}
