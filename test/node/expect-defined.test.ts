/** The one check that replaces non-null assertions (src/common/expect.ts). */
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";

describe("expectDefined", () => {
  it("returns a present value unchanged, falsy ones included", () => {
    const row = { id: 1 };
    expect(expectDefined(row, "a row")).toBe(row);
    expect(expectDefined(0, "a count")).toBe(0);
    expect(expectDefined("", "a name")).toBe("");
    expect(expectDefined(false, "a flag")).toBe(false);
  });

  it("throws an error naming what was expected when the value is missing", () => {
    expect(() => expectDefined([][0], "the first release")).toThrow("expected the first release, found undefined");
    expect(() => expectDefined(null, "an account row")).toThrow("expected an account row, found null");
  });
});
