/**
 * The sorted copy (the build's fast path) must never accept what zod rejects, must accept the
 * valid profiles it exists for (or the fast path would silently never run), and its
 * JSON.stringify must be JCS for whatever it accepts. Every leaf of a
 * generated profile is replaced by values of every JSON type and near-misses, every key removed,
 * and an unknown key added at every level; each result is compared with zod's verdict.
 */
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { canonicalJson, CanonicalizationError } from "../../src/node/catalog/canonical";
import { Profile } from "../../src/common/catalog/schema";
import { generateProfiles } from "../../src/node/catalog/build/generator";
import {
  canonicalOfSortedCopy,
  compileSortedCopy,
  sortedProfileCopy,
} from "../../src/node/catalog/build/profile-canonical";
import { allSamples } from "./profile-fixtures";
import { expectDefined } from "../../src/common/expect";

const accepts = (value: unknown) => sortedProfileCopy(value) !== undefined;

/** The text, or how serializing refused the value. */
function outcome(serialize: () => string): string {
  try {
    return serialize();
  } catch (error) {
    if (error instanceof CanonicalizationError) return `refused: ${error.message}`;
    throw error;
  }
}
type Json = unknown;

/** Every [parent, key] position of a JSON value. */
function* positions(value: Json): Generator<[Record<string, Json> | Json[], string | number]> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      yield [value, i];
      yield* positions(value[i]);
    }
  } else if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) {
      yield [value as Record<string, Json>, key];
      yield* positions((value as Record<string, Json>)[key]);
    }
  }
}

/** Replacements for a value: other JSON types, and values close to the valid one. */
function nearMisses(value: Json): Json[] {
  const others: Json[] = [null, true, 0, -1, 1.5, 2, 1e21, "", "x", [], {}, [1], { a: 1 }];
  if (typeof value === "string")
    others.push(
      `${value} `,
      value.slice(1),
      value.toUpperCase(),
      `${value}\n`,
      value.replace(/\d/, "a"),
      value.replace(/Z$/, "+00:00"),
      value.replace(/^https/, "http"),
      "2026-02-30T00:00:00Z",
      "2026-02-30T00:00:00.000Z",
      "\ud800",
    );
  if (typeof value === "number") others.push(value + 0.5, -value, value * 1000, Number.MAX_SAFE_INTEGER + 2);
  return others;
}

function mutations(profile: Json): Json[] {
  const out: Json[] = [];
  const count = [...positions(profile)].length;
  for (let n = 0; n < count; n++) {
    const position = (json: Json) => expectDefined([...positions(json)][n], `position ${n}`);
    const variants = (() => {
      const [parent, key] = position(profile);
      const original = (parent as Record<string, Json>)[key as string];
      return [...nearMisses(original).map((replacement) => ({ replace: replacement })), { remove: true }];
    })();
    for (const variant of variants) {
      const copy = structuredClone(profile);
      const [parent, key] = position(copy);
      if ("remove" in variant) {
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete (parent as Record<string, Json>)[key as string];
      } else (parent as Record<string, Json>)[key as string] = variant.replace;
      out.push(copy);
    }
  }
  for (const [parent] of positions(profile)) {
    if (Array.isArray(parent)) continue;
    const copy = structuredClone(profile);
    const target = [...positions(copy)].find(([p]) => JSON.stringify(p) === JSON.stringify(parent))?.[0];
    if (target && !Array.isArray(target)) (target as Record<string, Json>).unknown_field = 1;
    out.push(copy);
  }
  const extraStage = structuredClone(profile) as { stages: Json[] };
  extraStage.stages.push(extraStage.stages[0]);
  out.push(
    extraStage,
    [],
    null,
    "profile",
    { ...(profile as object), __proto__: 1 },
    JSON.parse(`{"__proto__":1,${JSON.stringify(profile).slice(1)}`),
  );
  return out;
}

describe("sorted profile copy", () => {
  it("accepts every valid sample and generated profile (the fast path runs)", () => {
    const valid = [...allSamples().map((s) => s.profile), ...generateProfiles(200, 7)];
    for (const profile of valid) expect(Profile.safeParse(profile).success && accepts(profile)).toBe(true);
  });

  it("never accepts a value zod rejects: every leaf replaced, every key removed, an unknown key at every level", () => {
    let rejected = 0;
    let serialized = 0;
    for (const profile of [...generateProfiles(3, 11)]) {
      for (const mutated of mutations(profile)) {
        const zod = Profile.safeParse(mutated).success;
        const sorted = sortedProfileCopy(mutated);
        if (sorted)
          expect([JSON.stringify(mutated).slice(0, 200), zod]).toEqual([JSON.stringify(mutated).slice(0, 200), true]);
        if (sorted) {
          const fast = outcome(() => canonicalOfSortedCopy(sorted, mutated));
          expect(fast).toBe(outcome(() => canonicalJson(mutated)));
          if (!fast.startsWith("refused")) expect(fast).toBe(canonicalize(mutated));
          serialized++;
        }
        if (!zod) rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(1000);
    expect(serialized).toBeGreaterThan(100);
  });
});

describe("compileSortedCopy on other schemas", () => {
  it("sorts what a node zod checks itself holds (here a record), and leaves to zod what it cannot sort", () => {
    const copy = compileSortedCopy(z.strictObject({ b: z.record(z.string(), z.number()), a: z.string() }));
    const value = { b: { z: 1, é: 2, E: 3, "": 4 }, a: "x" };
    expect(JSON.stringify(copy(value))).toBe(canonicalize(value));
    // "10" and "9" are enumerated 9 first by any JavaScript object; JCS puts "10" first.
    expect(copy({ b: { "9": 1, "10": 2 }, a: "x" })).toBeUndefined();
    expect(copy({ b: { z: "not a number" }, a: "x" })).toBeUndefined();
  });

  it("refuses to compile a schema key that a JavaScript object would reorder", () => {
    expect(() => compileSortedCopy(z.strictObject({ "10": z.string(), "9": z.string() }))).toThrow(
      'schema key "10" cannot be held in a sorted object literal',
    );
  });

  it("mirrors bounds, integers and patterns exactly at their edges", () => {
    const schema = z.strictObject({
      n: z.int().min(1).max(5),
      r: z.number().min(0).max(1),
      s: z
        .string()
        .min(2)
        .regex(/^[a-z]+$/),
    });
    const copy = compileSortedCopy(schema);
    const check = (value: unknown) => copy(value) !== undefined;
    expect(check({ n: 1, r: 0, s: "ab" })).toBe(true);
    expect(check({ n: 5, r: 1, s: "ab" })).toBe(true);
    for (const bad of [
      { n: 0 },
      { n: 6 },
      { n: 1.5 },
      { r: -0.1 },
      { r: 1.0001 },
      { r: Number.NaN },
      { s: "a" },
      { s: "aB" },
      { s: 1 },
    ]) {
      const value = { n: 1, r: 0, s: "ab", ...bad };
      expect([bad, check(value)]).toEqual([bad, false]);
      expect(schema.safeParse(value).success).toBe(false);
    }
    expect(check({ n: 1, r: 0, s: "ab", extra: 1 })).toBe(false);
    expect(check({ n: 1, r: 0 })).toBe(false);
  });
});
