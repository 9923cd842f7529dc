/**
 * The build's fast path for a valid profile: one walk, compiled from the zod schema into JavaScript
 * (as ajv and fast-json-stringify compile theirs), that checks the value against the strict schema
 * and copies it with every object's keys in UTF-16 order (RFC 8785 §3.2.3). `JSON.stringify` of
 * the copy is then the profile's JCS text, from V8's native serializer: ECMAScript's string and
 * number serialization is JCS's (§3.2.2.2, §3.2.2.3).
 *
 * It is conservative: a copy only when zod would accept the value too. A node it cannot mirror
 * exactly asks that node's own `safeParse`; `undefined` means "ask zod", whose issues make the
 * report. Tests prove it never accepts what zod rejects, and byte equality with an independent JCS
 * library.
 *
 * Measured per profile on one thread, after `JSON.parse`: a closure-compiled precheck followed by a
 * string-concatenating serializer took 22 µs; ajv followed by fast-json-stringify, 18 µs; this
 * compiled walk followed by `JSON.stringify`, 13 µs. Closures in place of generated code: 18 µs.
 */
import type { z } from "@hono/zod-openapi";
import { canonicalJson } from "../canonical";
import { Profile } from "../../../common/catalog/schema";

type Check = {
  check?: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  value?: number;
  inclusive?: boolean;
};
type Def = {
  type: string;
  format?: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  entries?: Record<string, string | number>;
  checks?: { _zod: { def: Check } }[];
};

/** A key-sorted copy of the value when the schema surely accepts it; undefined otherwise. */
export type SortedCopy = (value: unknown) => object | undefined;

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def) => (def.checks ?? []).map((c) => c._zod.def);

/**
 * Integer-like keys are enumerated first, in numeric order, by every JavaScript object: a copy
 * could not hold them in UTF-16 order, so no generated object may have one.
 */
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** Generated functions, one per schema node, and the values (schemas, sets, patterns) they use. */
class Program {
  private readonly functions: string[] = [];
  private readonly bound: unknown[] = [];

  bind(value: unknown): string {
    this.bound.push(value);
    return `bound[${this.bound.length - 1}]`;
  }

  define(body: string): string {
    const name = `node${this.functions.length}`;
    this.functions.push(`function ${name}(v) {\n${body}\n}`);
    return name;
  }

  link(root: string): SortedCopy {
    const source = `"use strict";\n${this.functions.join("\n")}\nreturn ${root};`;
    return new Function("bound", "hasOwn", source)(this.bound, Object.hasOwn) as SortedCopy;
  }
}

export function compileSortedCopy(schema: z.ZodType): SortedCopy {
  const program = new Program();
  return program.link(compileNode(schema, program));
}

/** Emits the node's function and returns its name. */
function compileNode(schema: z.ZodType, program: Program): string {
  const def = defOf(schema);
  const checks = checksOf(def);
  const byZod = () =>
    program.define(
      `return ${program.bind(schema)}.safeParse(v).success ? ${program.bind(copyAccepted)}(v) : undefined;`,
    );
  if (checks.length === 0 && def.type === "object" && def.shape) return objectNode(def.shape, program);
  if (checks.length === 0 && def.type === "array" && def.element) {
    const element = compileNode(def.element, program);
    return program.define(
      `if (!Array.isArray(v)) return undefined;
const copy = [];
for (let i = 0; i < v.length; i++) { const c = ${element}(v[i]); if (c === undefined) return undefined; copy.push(c); }
return copy;`,
    );
  }
  if (checks.length === 0 && def.type === "enum" && def.entries) {
    const values = program.bind(new Set(Object.values(def.entries)));
    return program.define(
      `return (typeof v === "string" || typeof v === "number") && ${values}.has(v) ? v : undefined;`,
    );
  }
  if (def.type === "string" && def.format === undefined) {
    const tests = stringTests(checks, program);
    return tests !== undefined ? program.define(`return typeof v === "string"${tests} ? v : undefined;`) : byZod();
  }
  if (def.type === "number" && (def.format === undefined || def.format === "safeint")) {
    const tests = numberTests(checks, def.format === "safeint");
    return tests !== undefined ? program.define(`return typeof v === "number"${tests} ? v : undefined;`) : byZod();
  }
  return byZod();
}

/** Exactly the shape's keys (a strict object; for a stripping one this is stricter than zod). */
function objectNode(shape: Record<string, z.ZodType>, program: Program): string {
  const entries = Object.entries(shape).sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [key] of entries)
    if (ARRAY_INDEX.test(key) || key === "__proto__")
      throw new Error(`schema key ${JSON.stringify(key)} cannot be held in a sorted object literal`);
  const fields = entries.map(([key, type]) => ({ key: JSON.stringify(key), node: compileNode(type, program) }));
  return program.define(
    `if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
let count = 0;
for (const key in v) count++;
if (count !== ${entries.length}) return undefined;
${fields.map(({ key, node }, i) => `const c${i} = hasOwn(v, ${key}) ? ${node}(v[${key}]) : undefined;\nif (c${i} === undefined) return undefined;`).join("\n")}
return { ${fields.map(({ key }, i) => `${key}: c${i}`).join(", ")} };`,
  );
}

/** `&& …` tests for a string with only length and regex checks; undefined for anything else. */
function stringTests(checks: Check[], program: Program): string | undefined {
  let tests = "";
  for (const check of checks) {
    if (check.check === "min_length" && typeof check.minimum === "number") tests += ` && v.length >= ${check.minimum}`;
    else if (
      check.check === "string_format" &&
      check.format === "regex" &&
      check.pattern &&
      !check.pattern.global &&
      !check.pattern.sticky
    )
      tests += ` && ${program.bind(check.pattern)}.test(v)`;
    else return undefined;
  }
  return tests;
}

/** `&& …` tests for a finite number (a safe integer for `z.int()`) with only inclusive bounds. */
function numberTests(checks: Check[], integer: boolean): string | undefined {
  let tests = integer ? " && Number.isSafeInteger(v)" : " && Number.isFinite(v)";
  for (const check of checks) {
    if (check.inclusive !== true || typeof check.value !== "number" || !Number.isFinite(check.value)) return undefined;
    if (check.check === "greater_than") tests += ` && v >= ${check.value}`;
    else if (check.check === "less_than") tests += ` && v <= ${check.value}`;
    else return undefined;
  }
  return tests;
}

/** A value zod accepted at a node the program does not mirror, key-sorted; undefined if it cannot be. */
function copyAccepted(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (const item of value) {
      const c = copyAccepted(item);
      if (c === undefined) return undefined;
      copy.push(c);
    }
    return copy;
  }
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value).sort()) {
    const c = copyAccepted((value as Record<string, unknown>)[key]);
    if (c === undefined || ARRAY_INDEX.test(key)) return undefined;
    copy[key] = c;
  }
  return copy;
}

/** The profile schema's sorted copy: defined exactly when the build may skip zod. */
export const sortedProfileCopy = compileSortedCopy(Profile);

/**
 * JCS text of a profile from its sorted copy. `JSON.stringify` writes a lone surrogate as a \udXXX
 * escape where JCS refuses the string (§3.2.2.2), and writes no other escape that starts `\ud`:
 * text that holds one goes to the general serializer, which refuses a lone surrogate with its path
 * (and serializes a literal backslash-"ud" the same way).
 */
export function canonicalOfSortedCopy(copy: object, profile: unknown): string {
  const text = JSON.stringify(copy);
  return text.includes("\\ud") ? canonicalJson(profile) : text;
}
