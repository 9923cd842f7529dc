/**
 * The `Range` request header (RFC 9110 §14), decided against a representation's size. Pure.
 * One range per request: a multi-range request is answered with the whole representation (200),
 * as RFC 9110 §14.2 lets a server ignore Range; no multipart/byteranges. A 416 for it made download
 * tools fail, and a cache in front (Varnish) turn it into a 503.
 */
export type RangeDecision =
  | { kind: "whole" }
  | { kind: "partial"; start: number; end: number }
  | { kind: "unsatisfiable"; detail: string };

const BYTE_RANGE = /^(\d*)-(\d*)$/;

export function decideRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined) return { kind: "whole" };
  const equals = header.indexOf("=");
  // RFC 9110 §14.2: a range unit the server does not understand is ignored.
  if (equals < 0 || header.slice(0, equals).trim().toLowerCase() !== "bytes") return { kind: "whole" };
  const specs = header
    .slice(equals + 1)
    .split(",")
    .map((spec) => spec.trim())
    .filter(Boolean);
  if (specs.length > 1) return { kind: "whole" };
  if (specs.length === 0) {
    return {
      kind: "unsatisfiable",
      detail: "Range: bytes= names no range; expected e.g. bytes=0-1023, bytes=1024- or bytes=-512.",
    };
  }
  const [spec = ""] = specs; // exactly one, checked above
  const match = BYTE_RANGE.exec(spec);
  const [first, last] = [match?.[1] ?? "", match?.[2] ?? ""];
  if (!match || (first === "" && last === "")) {
    return {
      kind: "unsatisfiable",
      detail: `Range "${spec}" is not a byte range; expected first-last, first- or -suffix_length (RFC 9110 §14.1.1).`,
    };
  }
  if (first === "") {
    // RFC 9110 §14.1.1: a suffix range selects the last N bytes; N = 0 selects nothing.
    const suffix = toPosition(last);
    if (suffix === 0) return { kind: "unsatisfiable", detail: "Range bytes=-0 selects no bytes." };
    return { kind: "partial", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = toPosition(first);
  const end = last === "" ? Number.MAX_SAFE_INTEGER : toPosition(last);
  if (end < start) return { kind: "unsatisfiable", detail: `Range bytes=${spec} ends before it starts.` };
  // RFC 9110 §14.1.3: a range is satisfiable when its first position is below the size.
  if (start >= size)
    return {
      kind: "unsatisfiable",
      detail: `Range bytes=${spec} starts at or after the end of the ${size}-byte representation.`,
    };
  return { kind: "partial", start, end: Math.min(end, size - 1) };
}

/** Digit strings beyond 2^53 are simply "past any size we serve". */
function toPosition(digits: string): number {
  return digits.length > 15 ? Number.MAX_SAFE_INTEGER : Number(digits);
}
