/**
 * Pass 1 of a build, for one unit of input (a whole .json file, or one ndjson line / array element):
 * parse it, validate every profile in it, and canonicalize each (RFC 8785). Pure CPU work with no
 * I/O, so it can run on worker threads.
 */
import { canonicalJson, CanonicalizationError } from "../../src/catalog/canonical";
import { isObject, validateProfile } from "../../src/catalog/rules";
import type { RuleViolation } from "../../src/catalog/validation-report";
import type { CatalogEntry } from "../../src/catalog/validation-catalog";
import { locateSyntaxError } from "./json-syntax";
import { entryOf, whereOf, type ReportEntry, type SourceLocation } from "./report";

export type InputUnit =
  /** A whole .json file: one profile, an array of profiles, or an envelope whose `data` holds them. */
  | { kind: "document"; file: string; text: string }
  /** One profile's JSON text: an ndjson line, or an element of a streamed array. */
  | { kind: "profile"; location: SourceLocation; text: string }
  /** Input that could not be read as text (e.g. invalid UTF-8). */
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

export function checkUnit(unit: InputUnit): CheckedProfile[] {
  if (unit.kind === "unreadable") return [{ location: { file: unit.problem.file }, problems: [unit.problem] }];
  const location = unit.kind === "document" ? { file: unit.file } : unit.location;
  const text = unit.text.charCodeAt(0) === 0xfeff ? unit.text.slice(1) : unit.text; // tolerate a UTF-8 BOM
  if (text.trim() === "") {
    const what = unit.kind === "document" ? "the file is empty" : "the line is blank";
    return [problem(location, "input", what, "a JSON profile", text === "" ? "0 bytes" : "only whitespace")];
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const at = locateSyntaxError(text, error);
    const line = unit.kind === "profile" && location.line !== undefined ? location.line + at.line - 1 : at.line;
    return [problem({ ...location, line, column: at.column }, "json-syntax", at.message, "well-formed JSON (RFC 8259)", `a syntax error at line ${line}, column ${at.column}`)];
  }
  if (unit.kind === "profile") return [checkProfile(value, location)];
  if (Array.isArray(value)) return value.map((item, i) => checkProfile(item, { ...location, pointer: `[${i}]` }));
  if (isObject(value) && "data" in value && Object.keys(value).every((key) => ENVELOPE_FIELDS.has(key))) {
    if (!Array.isArray(value.data)) return [problem(location, "input", "an envelope's data must be an array of profiles", "an array", typeof value.data)];
    return value.data.map((item, i) => checkProfile(item, { ...location, pointer: `data[${i}]` }));
  }
  return [checkProfile(value, location)];
}

export function checkProfile(value: unknown, location: SourceLocation): CheckedProfile {
  if (!isObject(value)) {
    return problem(location, "input", "a profile must be a JSON object", "an object", Array.isArray(value) ? "an array" : JSON.stringify(value));
  }
  const id = typeof value.agent_readiness_profile_id === "string" ? value.agent_readiness_profile_id : undefined;
  const violations: RuleViolation[] = validateProfile(value);
  let canonical: string | undefined;
  try {
    canonical = canonicalJson(value);
  } catch (error) {
    if (!(error instanceof CanonicalizationError)) throw error;
    violations.push({ rule: "canonical-json", path: error.path.replace(/^\$\.?/, ""), message: error.message.replace(/^[^:]*: /, ""), expected: "a string of Unicode scalar values (RFC 8785 §3.2.2.2)", found: "a lone surrogate escape (\\ud800–\\udfff)" });
  }
  return { location, entry: catalogEntryOf(value, location), canonical, problems: violations.map((v) => entryOf(v, location, id)) };
}

function catalogEntryOf(profile: Record<string, unknown>, location: SourceLocation): CatalogEntry | undefined {
  const scope = isObject(profile.scope) ? profile.scope : {};
  const product = isObject(scope.product) ? scope.product.key : undefined;
  const funnel = isObject(scope.funnel) ? scope.funnel.key : undefined;
  const fields = [profile.agent_readiness_profile_id, product, funnel, profile.policy_digest, profile.policy_version];
  if (!fields.every((f) => typeof f === "string")) return undefined;
  const [id, productKey, funnelKey, policyDigest, policyVersion] = fields as string[];
  return { id: id!, productKey: productKey!, funnelKey: funnelKey!, policyDigest: policyDigest!, policyVersion: policyVersion!, where: whereOf(location) };
}

function problem(location: SourceLocation, rule: "input" | "json-syntax", message: string, expected: string, found: string): CheckedProfile {
  return { location, problems: [entryOf({ rule, path: "", message, expected, found }, location)] };
}
