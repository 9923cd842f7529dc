/**
 * RFC 8785 text of a *validated* profile, fast: a serializer compiled from the zod schema writes
 * each object's known keys in UTF-16 order (RFC 8785 §3.2.3) and leaves strings and numbers to
 * `JSON.stringify`, whose output is JCS's (§3.2.2.2, §3.2.2.3). It is only correct for a value the
 * strict schema accepted (no unknown key, every key present), which is when the build calls it.
 * Anything unusual (a lone surrogate, a `\u` escape) falls back to the general `canonicalJson`;
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
  if (def.type === "string" || def.type === "number" || def.type === "enum" || def.type === "boolean") return (value) => JSON.stringify(value);
  return canonicalJson; // anything else: the general serializer
}

const serializeProfile = compile(Profile);

/** JCS of a profile that passed `validateProfile` with no violation. */
export function canonicalProfileJson(profile: unknown): string {
  const text = serializeProfile(profile);
  // JSON.stringify writes a lone surrogate as a \udXXX escape, which JCS rejects: let the general
  // serializer decide (it throws with the path) whenever such an escape could be present.
  return text.includes("\\u") ? canonicalJson(profile) : text;
}
