/**
 * The build's validation report: every violation with where it is (file, line, profile id, JSON
 * path), which rule it breaks and the expected versus found values, grouped by file and profile.
 */
import type { RuleViolation } from "../validation-report";

export interface SourceLocation {
  file: string;
  /** 1-based line: the ndjson line, or the line of a JSON syntax error. */
  line?: number;
  column?: number;
  /** Position in the file's array of profiles (`[3]`, or `data[3]` in an envelope). */
  pointer?: string;
}

export interface ReportEntry extends RuleViolation {
  file: string;
  line?: number;
  column?: number;
  pointer?: string;
  profile_id?: string;
}

export function whereOf(location: SourceLocation): string {
  let where = location.file;
  if (location.pointer) where += ` ${location.pointer}`;
  if (location.line !== undefined) where += `:${location.line}`;
  if (location.column !== undefined) where += `:${location.column}`;
  return where;
}

export function entryOf(violation: RuleViolation, location: SourceLocation, profileId?: string): ReportEntry {
  const entry: ReportEntry = { file: location.file, ...violation };
  if (location.line !== undefined) entry.line = location.line;
  if (location.column !== undefined) entry.column = location.column;
  if (location.pointer) entry.pointer = location.pointer;
  if (profileId) entry.profile_id = profileId;
  return entry;
}

/** Entries in a stable order: by file, line, pointer, then as the rules reported them. */
export function sortEntries(entries: ReportEntry[]): ReportEntry[] {
  const keyed = entries.map((entry, order) => ({ entry, order }));
  keyed.sort((a, b) => compareLocation(a.entry, b.entry) || a.order - b.order);
  return keyed.map((k) => k.entry);
}

function compareLocation(a: ReportEntry, b: ReportEntry): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if ((a.line ?? 0) !== (b.line ?? 0)) return (a.line ?? 0) - (b.line ?? 0);
  const pa = a.pointer ?? "";
  const pb = b.pointer ?? "";
  return pa === pb ? 0 : naturalLess(pa, pb) ? -1 : 1;
}

const naturalLess = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true }) < 0;

/** Human report, grouped by file and profile, with the total count last. */
export function formatReport(entries: ReportEntry[]): string {
  const lines: string[] = [];
  let group = "";
  for (const entry of sortEntries(entries)) {
    const heading = headingOf(entry);
    if (heading !== group) {
      if (lines.length) lines.push("");
      lines.push(heading);
      group = heading;
    }
    const at = entry.path ? `${entry.path}: ` : "";
    lines.push(`  ${at}${entry.message} [${entry.rule}]`);
    lines.push(`      expected: ${entry.expected}`);
    lines.push(`      found:    ${entry.found}`);
  }
  const n = entries.length;
  const files = new Set(entries.map((e) => e.file)).size;
  lines.push("", `${n} violation${n === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}; nothing was written.`);
  return lines.join("\n");
}

/** `file [pointer]:line` (and `:column` for a syntax error), then the profile id when known. */
function headingOf(entry: ReportEntry): string {
  const column = entry.rule === "json-syntax" ? entry.column : undefined;
  const where = whereOf({ file: entry.file, line: entry.line, column, pointer: entry.pointer });
  return entry.profile_id ? `${where} (${entry.profile_id})` : where;
}
