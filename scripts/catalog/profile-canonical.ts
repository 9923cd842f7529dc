/**
 * RFC 8785 text of a *validated* profile at native speed: `JSON.stringify` with a property list
 * serializes every object's keys in the list's order (ECMA-262 SerializeJSONObject), so the sorted
 * union of the schema's keys gives each object its keys in UTF-16 order, which is JCS (RFC 8785
 * §3.2.3). It is only correct when no key is missing from the list, which the strict schema
 * guarantees for a valid profile. Anything unusual (a lone surrogate, a literal `\u` text) falls
 * back to the general `canonicalJson`; tests prove byte equality with it and with a JCS library.
 */
import type { z } from "@hono/zod-openapi";
import { canonicalJson } from "../../src/catalog/canonical";
import { Profile } from "../../src/catalog/schema";

type Def = { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; options?: z.ZodType[] };

function keysOf(schema: z.ZodType, into: Set<string>): Set<string> {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  const children: (z.ZodType | undefined)[] = [def.element, def.innerType, def.in, def.out, ...(def.options ?? [])];
  for (const [key, child] of Object.entries(def.shape ?? {})) {
    into.add(key);
    children.push(child);
  }
  for (const child of children) if (child) keysOf(child, into);
  return into;
}

/** Every object key a valid profile can hold, sorted by UTF-16 code units. */
export const PROFILE_KEYS: readonly string[] = [...keysOf(Profile, new Set())].sort();

/** JCS of a profile that passed `validateProfile` with no violation. */
export function canonicalProfileJson(profile: unknown): string {
  const text = JSON.stringify(profile, PROFILE_KEYS as string[]);
  // JSON.stringify writes a lone surrogate as a \udXXX escape, which JCS rejects: let the general
  // serializer decide (it throws with the path) whenever such an escape could be present.
  return text.includes("\\u") ? canonicalJson(profile) : text;
}
