/**
 * Pass 1 of a build, for one unit of input (a whole .json file, a chunk of ndjson lines, or one
 * profile's text): parse it, validate every profile in it, and canonicalize each (RFC 8785). Pure
 * CPU work with no I/O, so it runs on worker threads as well as inline.
 */
import { isUtf8 } from "node:buffer";
import { canonicalJson, CanonicalizationError } from "../canonical";
import { isObject, ruleViolations, validateProfile } from "../rules";
import type { CatalogEntry } from "../validation-catalog";
import { locateSyntaxError } from "./json-syntax";
import { canonicalOfSortedCopy, sortedProfileCopy } from "./profile-canonical";
import { entryOf, whereOf, type ReportEntry, type SourceLocation } from "./report";

export type InputUnit =
  /** A whole .json file: one profile, an array of profiles, or an envelope whose `data` holds them. */
  | { kind: "document"; file: string; text: string }
  /** Whole lines of an ndjson file (UTF-8 bytes), the first being line `firstLine`. */
  | { kind: "lines"; file: string; firstLine: number; bytes: Uint8Array }
  /** Elements of a streamed root array: their bytes end to end, and where each one was. */
  | {
      kind: "elements";
      file: string;
      bytes: Uint8Array;
      elements: { index: number; line: number; column: number; end: number }[];
    }
  /** Input that could not be read as text. */
  | { kind: "unreadable"; problem: ReportEntry };

export interface CheckedProfile {
  location: SourceLocation;
  /** The catalog-wide fields, when readable (also for a profile that breaks other rules). */
  entry?: CatalogEntry;
  /** RFC 8785 text of the profile; absent when it has none. */
  canonical?: string;
  problems: ReportEntry[];
}

const ENVELOPE_FIELDS = new Set(["api_contract", "release_id", "artifact_sha256", "data"]);

/** The unit's profiles, checked one at a time (a consumer that drops each keeps the heap small). */
export function checkUnit(unit: InputUnit): Iterable<CheckedProfile> {
  switch (unit.kind) {
    case "unreadable":
      return [{ location: { file: unit.problem.file }, problems: [unit.problem] }];
    case "lines":
      return checkLines(unit.file, unit.firstLine, unit.bytes);
    case "elements":
      return checkElements(unit.file, unit.bytes, unit.elements);
    case "document":
      return checkDocument(unit.file, unit.text);
  }
}

function checkDocument(file: string, raw: string): CheckedProfile[] {
  const location = { file };
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw; // tolerate a UTF-8 BOM
  if (text.trim() === "")
    return [
      problem(location, "input", "the file is empty", "a JSON profile", raw === "" ? "0 bytes" : "only whitespace"),
    ];
  const value = parseJson(text, location);
  if ("problem" in value) return [value.problem];
  const json = value.json;
  if (Array.isArray(json)) return json.map((item, i) => checkProfile(item, { file, pointer: `[${i}]` }));
  if (isObject(json) && "data" in json && Object.keys(json).every((key) => ENVELOPE_FIELDS.has(key))) {
    if (!Array.isArray(json.data))
      return [
        problem(location, "input", "an envelope's data must be an array of profiles", "an array", typeof json.data),
      ];
    return json.data.map((item, i) => checkProfile(item, { file, pointer: `data[${i}]` }));
  }
  return [checkProfile(json, location)];
}

function* checkLines(file: string, firstLine: number, bytes: Uint8Array): Generator<CheckedProfile> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let line = firstLine;
  for (let start = 0; start < buffer.length; line++) {
    let end = buffer.indexOf(10, start);
    if (end === -1) end = buffer.length;
    const location = { file, line };
    const slice = buffer.subarray(start, end > start && buffer[end - 1] === 13 ? end - 1 : end);
    start = end + 1;
    if (!isUtf8(slice)) {
      // RFC 8259 §8.1: JSON exchanged between systems is UTF-8; refuse anything else, do not guess.
      yield problem(
        location,
        "input",
        "the line is not valid UTF-8 (RFC 8259 §8.1)",
        "UTF-8 text",
        "an invalid byte sequence",
      );
      continue;
    }
    const text = slice.toString("utf8");
    if (text.trim() === "") continue;
    const value = parseJson(text, location);
    yield "problem" in value ? value.problem : checkProfile(value.json, location);
  }
}

function* checkElements(
  file: string,
  bytes: Uint8Array,
  elements: { index: number; line: number; column: number; end: number }[],
): Generator<CheckedProfile> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  for (const { index, line, column, end } of elements) {
    const slice = buffer.subarray(start, end);
    start = end;
    const location = { file, pointer: `[${index}]`, line };
    if (!isUtf8(slice)) {
      yield problem(location, "input", "not valid UTF-8 (RFC 8259 §8.1)", "UTF-8 text", "an invalid byte sequence");
      continue;
    }
    const value = parseJson(slice.toString("utf8"), location, column);
    yield "problem" in value ? value.problem : checkProfile(value.json, location);
  }
}

/** Parses one JSON text that starts at `location.line` (and `startColumn` of that line). */
function parseJson(
  text: string,
  location: SourceLocation,
  startColumn = 1,
): { json: unknown } | { problem: CheckedProfile } {
  try {
    return { json: JSON.parse(text) };
  } catch (error) {
    const at = locateSyntaxError(text, error);
    const line = (location.line ?? 1) + at.line - 1;
    const column = at.line === 1 ? startColumn + at.column - 1 : at.column;
    const where = { ...location, line, column };
    return {
      problem: problem(
        where,
        "json-syntax",
        at.message,
        "well-formed JSON (RFC 8259)",
        `a syntax error at line ${line}, column ${column}`,
      ),
    };
  }
}

function checkProfile(value: unknown, location: SourceLocation): CheckedProfile {
  if (!isObject(value)) {
    return problem(
      location,
      "input",
      "a profile must be a JSON object",
      "an object",
      Array.isArray(value) ? "an array" : JSON.stringify(value),
    );
  }
  const id = typeof value.agent_readiness_profile_id === "string" ? value.agent_readiness_profile_id : undefined;
  // The usual case, a profile the schema accepts, skips zod (which copies every object it checks)
  // and gets its JCS text from the sorted copy; zod decides, and reports, everything else.
  const sorted = sortedProfileCopy(value);
  const violations = sorted ? ruleViolations(value) : validateProfile(value);
  let canonical: string | undefined;
  try {
    canonical = sorted && violations.length === 0 ? canonicalOfSortedCopy(sorted, value) : canonicalJson(value);
  } catch (error) {
    if (!(error instanceof CanonicalizationError)) throw error;
    violations.push({
      rule: "canonical-json",
      path: error.path.replace(/^\$\.?/, ""),
      message: "string contains a lone UTF-16 surrogate",
      expected: "a string of Unicode scalar values (RFC 8785 §3.2.2.2)",
      found: "a lone surrogate escape (\\ud800–\\udfff)",
    });
  }
  return {
    location,
    entry: catalogEntryOf(value, location),
    canonical,
    problems: violations.map((v) => entryOf(v, location, id)),
  };
}

function catalogEntryOf(profile: Record<string, unknown>, location: SourceLocation): CatalogEntry | undefined {
  const scope = isObject(profile.scope) ? profile.scope : {};
  const product = isObject(scope.product) ? scope.product.key : undefined;
  const funnel = isObject(scope.funnel) ? scope.funnel.key : undefined;
  const { agent_readiness_profile_id: id, policy_digest: policyDigest, policy_version: policyVersion } = profile;
  if (typeof id !== "string" || typeof product !== "string" || typeof funnel !== "string") return undefined;
  if (typeof policyDigest !== "string" || typeof policyVersion !== "string") return undefined;
  return { id, productKey: product, funnelKey: funnel, policyDigest, policyVersion, where: whereOf(location) };
}

function problem(
  location: SourceLocation,
  rule: "input" | "json-syntax",
  message: string,
  expected: string,
  found: string,
): CheckedProfile {
  return { location, problems: [entryOf({ rule, path: "", message, expected, found }, location)] };
}
