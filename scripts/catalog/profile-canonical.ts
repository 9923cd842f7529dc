/**
 * RFC 8785 text of a *validated* profile, fast: a serializer compiled from the zod schema writes
 * each object's known keys in UTF-16 order (RFC 8785 §3.2.3) and leaves strings and numbers to
 * `JSON.stringify`, whose output is JCS's (§3.2.2.2, §3.2.2.3). It is only correct for a value the
 * strict schema accepted (no unknown key, every key present), which is when the build calls it.
 * A lone surrogate falls back to the general `canonicalJson`, which refuses it with its path;
 * tests prove byte equality with it and with an independent JCS library.
 */
import type { z } from "@hono/zod-openapi";
import { canonicalJson } from "../../src/catalog/canonical";
import { Profile } from "../../src/catalog/schema";

type Def = { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType; in?: z.ZodType };
type Serialize = (value: unknown) => string;

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

function compile(schema: z.ZodType): Serialize {
  const def = defOf(schema);
  if (def.type === "object" && def.shape) {
    const fields = Object.keys(def.shape)
      .sort()
      .map((key, i) => ({ key, prefix: `${i ? "," : "{"}${JSON.stringify(key)}:`, write: compile(def.shape![key]!) }));
    return (value) => {
      const record = value as Record<string, unknown>;
      let out = "";
      for (const field of fields) out += field.prefix + field.write(record[field.key]);
      return fields.length ? `${out}}` : "{}";
    };
  }
  if (def.type === "array" && def.element) {
    const write = compile(def.element);
    return (value) => {
      const items = value as unknown[];
      let out = "[";
      for (let i = 0; i < items.length; i++) out += (i ? "," : "") + write(items[i]);
      return `${out}]`;
    };
  }
  if (def.innerType) return compile(def.innerType);
  if (def.type === "pipe" && def.in) return compile(def.in);
  if (def.type === "string") return writeString;
  if (def.type === "number" || def.type === "enum" || def.type === "boolean") return (value) => JSON.stringify(value);
  return canonicalJson; // anything else: the general serializer
}

const LONE_SURROGATE = new Error("lone surrogate");

/**
 * JSON.stringify escapes control characters exactly as JCS does, but writes a lone surrogate as a
 * \udXXX escape where JCS refuses the string (RFC 8785 §3.2.2.2). `isWellFormed` is O(1) for the
 * usual one-byte strings.
 */
function writeString(value: unknown): string {
  if (typeof value === "string" && !value.isWellFormed()) throw LONE_SURROGATE;
  return JSON.stringify(value);
}

const serializeProfile = compile(Profile);

/** JCS of a profile that passed `validateProfile` with no violation. */
export function canonicalProfileJson(profile: unknown): string {
  try {
    return serializeProfile(profile);
  } catch (error) {
    if (error === LONE_SURROGATE) return canonicalJson(profile); // throws, naming the string's path
    throw error;
  }
}
