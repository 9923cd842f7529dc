/**
 * Input readers: a directory of .json files, one .json file (a profile, an array, or an envelope),
 * or one .ndjson file (one profile per line). Each yields units of work for `checkUnit`, reading
 * incrementally; an ndjson file is never held whole.
 */
import { createReadStream, readdirSync, readFileSync, statSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import path from "node:path";
import type { InputUnit } from "./profile-check";
import { entryOf, type ReportEntry } from "./report";

export class UsageError extends Error {}

export interface InputPlan {
  kind: "directory" | "json" | "ndjson";
  /** Total bytes to read, for progress. */
  bytes: number;
  /** Problems found before reading (non-JSON files in a directory, 0-byte files). */
  problems: ReportEntry[];
  units: () => AsyncGenerator<InputUnit>;
}

const NDJSON = /\.(ndjson|jsonl)$/i;
const JSON_FILE = /\.json$/i;

export function planInput(input: string): InputPlan {
  let stats;
  try {
    stats = statSync(input);
  } catch {
    throw new UsageError(`--in ${input}: no such file or directory`);
  }
  if (stats.isDirectory()) return planDirectory(input);
  const problems = stats.size === 0 ? [inputProblem(input, "the file is empty (0 bytes)", "0 bytes")] : [];
  if (NDJSON.test(input)) return { kind: "ndjson", bytes: stats.size, problems, units: () => ndjsonUnits(input) };
  if (JSON_FILE.test(input)) return { kind: "json", bytes: stats.size, problems, units: () => documentUnits([input], problems.length > 0) };
  throw new UsageError(`--in ${input}: expected a directory, a .json file or an .ndjson file`);
}

function planDirectory(dir: string): InputPlan {
  const problems: ReportEntry[] = [];
  const files: string[] = [];
  let bytes = 0;
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".")) continue; // .gitkeep, .DS_Store
    const file = path.join(dir, name);
    const stats = statSync(file);
    if (!stats.isFile() || !JSON_FILE.test(name)) {
      const what = stats.isDirectory() ? "a subdirectory" : "not a .json file";
      problems.push(inputProblem(file, `${what}: an input directory holds one .json file per profile (move it out or rename it)`, what));
    } else if (stats.size === 0) {
      problems.push(inputProblem(file, "the file is empty (0 bytes)", "0 bytes"));
    } else {
      files.push(file);
      bytes += stats.size;
    }
  }
  if (files.length === 0 && problems.length === 0) problems.push(inputProblem(dir, "the directory holds no .json files", "no .json files"));
  return { kind: "directory", bytes, problems, units: () => documentUnits(files, false) };
}

async function* documentUnits(files: string[], skip: boolean): AsyncGenerator<InputUnit> {
  if (skip) return;
  for (const file of files) {
    const text = decode(readFileSync(file), file);
    yield typeof text === "string" ? { kind: "document", file, text } : { kind: "unreadable", problem: text };
  }
}

/** One unit per non-blank line; lines are split on bytes, so a chunk may end mid-character. */
async function* ndjsonUnits(file: string): AsyncGenerator<InputUnit> {
  let carry: Buffer = Buffer.alloc(0);
  let line = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const buffer = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let nl = buffer.indexOf(10, start); nl !== -1; nl = buffer.indexOf(10, start)) {
      line++;
      const unit = lineUnit(file, line, buffer.subarray(start, nl));
      if (unit) yield unit;
      start = nl + 1;
    }
    carry = Buffer.from(buffer.subarray(start));
  }
  if (carry.length) {
    const unit = lineUnit(file, line + 1, carry);
    if (unit) yield unit;
  }
}

function lineUnit(file: string, line: number, bytes: Buffer): InputUnit | undefined {
  const text = decode(bytes, file, line);
  if (typeof text !== "string") return { kind: "unreadable", problem: text };
  const trimmed = text.endsWith("\r") ? text.slice(0, -1) : text;
  return trimmed.trim() === "" ? undefined : { kind: "profile", location: { file, line }, text: trimmed };
}

/** RFC 8259 §8.1: JSON text exchanged between systems is UTF-8; refuse anything else, do not guess. */
function decode(bytes: Buffer, file: string, line?: number): string | ReportEntry {
  if (isUtf8(bytes)) return bytes.toString("utf8");
  return entryOf({ rule: "input", path: "", message: "not valid UTF-8 (RFC 8259 §8.1)", expected: "UTF-8 text", found: "an invalid byte sequence" }, { file, line });
}

function inputProblem(file: string, message: string, found: string): ReportEntry {
  return entryOf({ rule: "input", path: "", message, expected: "a .json or .ndjson file of profiles", found }, { file });
}
