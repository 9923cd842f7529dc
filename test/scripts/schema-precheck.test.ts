/**
 * The schema precheck (the build's fast path) must never accept what zod rejects, and must accept
 * the valid profiles it exists for (or the fast path would silently never run). Every leaf of a
 * generated profile is replaced by values of every JSON type and near-misses, every key removed,
 * and an unknown key added at every level; each result is compared with zod's verdict.
 */
import { describe, expect, it } from "vitest";
import { Profile } from "../../src/catalog/schema";
import { compilePrecheck } from "../../src/catalog/schema-precheck";
import { generateProfiles } from "../../scripts/catalog/generator";
import { allSamples } from "./profile-fixtures";

const accepts = compilePrecheck(Profile);
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
  if (typeof value === "string") others.push(`${value} `, value.slice(1), value.toUpperCase(), `${value}\n`, value.replace(/\d/, "a"), value.replace(/Z$/, "+00:00"), value.replace(/^https/, "http"), "2026-02-30T00:00:00Z", "2026-02-30T00:00:00.000Z", "\ud800");
  if (typeof value === "number") others.push(value + 0.5, -value, value * 1000, Number.MAX_SAFE_INTEGER + 2);
  return others;
}

function mutations(profile: Json): Json[] {
  const out: Json[] = [];
  const count = [...positions(profile)].length;
  for (let n = 0; n < count; n++) {
    const variants = (() => {
      const [, key] = [...positions(profile)][n]!;
      const [parent] = [...positions(profile)][n]!;
      const original = (parent as Record<string, Json>)[key as string];
      return [...nearMisses(original).map((replacement) => ({ replace: replacement })), { remove: true }];
    })();
    for (const variant of variants) {
      const copy = structuredClone(profile);
      const [parent, key] = [...positions(copy)][n]!;
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
  out.push(extraStage, [], null, "profile", { ...(profile as object), __proto__: 1 }, JSON.parse(`{"__proto__":1,${JSON.stringify(profile).slice(1)}`));
  return out;
}

describe("schema precheck", () => {
  it("accepts every valid sample and generated profile (the fast path runs)", () => {
    const valid = [...allSamples().map((s) => s.profile), ...generateProfiles(200, 7)];
    for (const profile of valid) expect(Profile.safeParse(profile).success && accepts(profile)).toBe(true);
  });

  it("never accepts a value zod rejects: every leaf replaced, every key removed, an unknown key at every level", () => {
    let rejected = 0;
    for (const profile of [...generateProfiles(3, 11)]) {
      for (const mutated of mutations(profile)) {
        const zod = Profile.safeParse(mutated).success;
        if (accepts(mutated)) expect([JSON.stringify(mutated).slice(0, 200), zod]).toEqual([JSON.stringify(mutated).slice(0, 200), true]);
        if (!zod) rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(1000);
  });
});
