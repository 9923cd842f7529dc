/** The CLIs' one table layout (src/node/cli/text-table.ts): `npm run operator` lists and `catalog:rollback -- --list`. */
import { describe, expect, it } from "vitest";
import { textTable } from "../../src/node/cli/text-table";

describe("textTable", () => {
  it("pads each column to its widest cell, two spaces apart, with no trailing spaces", () => {
    expect(
      textTable([
        ["ID", "NAME", "NOTE"],
        ["k_1", "a long name", ""],
      ]),
    ).toBe(["ID   NAME         NOTE", "k_1  a long name"].join("\n"));
  });

  it("pads the columns it is told hold numbers on the left", () => {
    expect(
      textTable(
        [
          ["RELEASE", "PROFILES"],
          ["a", "1,000"],
          ["b", "7"],
        ],
        [1],
      ),
    ).toBe(["RELEASE  PROFILES", "a           1,000", "b               7"].join("\n"));
  });
});
