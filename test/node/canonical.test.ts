/**
 * RFC 8785 (JCS): our serializers against an independent implementation (the `canonicalize`
 * package), on values chosen to break naive ones, and on real profiles.
 */
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { canonicalJson, CanonicalizationError } from "../../src/node/catalog/canonical";
import { generateProfiles } from "../../src/node/catalog/build/generator";
import { canonicalOfSortedCopy, sortedProfileCopy } from "../../src/node/catalog/build/profile-canonical";
import { allSamples, constrainedProfile } from "./profile-fixtures";
import { expectDefined } from "../../src/common/expect";

const jcs = (value: unknown) => canonicalize(value) as string;

const TRICKY: [string, unknown][] = [
  [
    "numbers at the edges of ECMAScript formatting",
    [1e21, 1e-7, 0.1, 0.2 + 0.1, -0, 5e-324, 1.7976931348623157e308, 123456789012345680000, 100, -1.5e-9],
  ],
  ["escapes", ["\u0000\u0001\u001f", '"quoted"', "back\\slash", "\b\f\n\r\t", "\u007f", "\u2028\u2029", "</script>"]],
  ["non-ASCII text", ["Zürich", "Ægir", "日本語", "😀", "e\u0301", "\u20ac"]],
  [
    "keys sorted by UTF-16 code units, not code points",
    { "\ufb33": 1, "😀": 2, é: 3, e: 4, E: 5, "": 6, a: { z: 1, "10": 2, "9": 3, ä: 4 } },
  ],
  ["nesting and literals", { b: [true, false, null, [], {}], a: { c: [{ y: 1, x: 2 }] } }],
];

describe("canonicalJson (src/node/catalog/canonical.ts)", () => {
  for (const [name, value] of TRICKY) {
    it(`matches the canonicalize package: ${name}`, () => {
      expect(canonicalJson(value)).toBe(jcs(value));
    });
  }

  it("refuses a lone surrogate with the path of the string (RFC 8785 §3.2.2.2)", () => {
    expect(() => canonicalJson({ a: [0, "x\ud800y"] })).toThrow(CanonicalizationError);
    expect(() => canonicalJson({ a: [0, "x\ud800y"] })).toThrow("$.a[1]: string contains a lone UTF-16 surrogate");
  });
});

/** The build's fast path: JSON.stringify of the schema-checked, key-sorted copy. */
function canonicalProfileJson(profile: unknown): string {
  const sorted = expectDefined(sortedProfileCopy(profile), "a sorted copy: the schema accepts the profile");
  return canonicalOfSortedCopy(sorted, profile);
}

describe("the sorted copy's JSON.stringify (the build's fast path for valid profiles)", () => {
  it("equals canonicalJson and canonicalize on every sample profile", () => {
    for (const { profile } of allSamples()) {
      const fast = canonicalProfileJson(profile);
      expect(fast).toBe(canonicalJson(profile));
      expect(fast).toBe(jcs(profile));
    }
  });

  it("equals canonicalize on 500 generated profiles", () => {
    for (const profile of generateProfiles(500, 7)) expect(canonicalProfileJson(profile)).toBe(jcs(profile));
  });

  it("escapes exactly as JCS, serializes a literal backslash-u text, and refuses a lone surrogate with its path", () => {
    const withEscapes = constrainedProfile();
    withEscapes.stages[0].primary_finding.context =
      'a literal \\u0041 and \\ud800, a tab\t, a "quote", \u0001, \u2028 and Zürich';
    expect(canonicalProfileJson(withEscapes)).toBe(jcs(withEscapes));
    const lone = constrainedProfile();
    lone.scope.product.name = "bad \udc00 name";
    expect(() => canonicalProfileJson(lone)).toThrow("$.scope.product.name: string contains a lone UTF-16 surrogate");
  });
});
