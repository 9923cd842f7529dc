/** The streaming scanner of root-array .json files: element bounds, positions, broken structure. */
import { describe, expect, it } from "vitest";
import { ArrayElementScanner, type JsonStructureError } from "../src/json-elements.js";

function scan(text: string, chunkSize = Infinity) {
  const scanner = new ArrayElementScanner();
  const bytes = Buffer.from(text);
  const elements = [];
  for (let at = 0; at < bytes.length; at += Math.min(chunkSize, bytes.length))
    elements.push(...scanner.push(bytes.subarray(at, at + chunkSize)));
  let failure: JsonStructureError | undefined;
  try {
    scanner.end();
  } catch (error) {
    failure = error as JsonStructureError;
  }
  return {
    elements: elements.map((e) => ({ ...e, bytes: new TextDecoder().decode(e.bytes) })),
    failure: failure && { message: failure.message, line: failure.line, column: failure.column },
  };
}

const TEXT = '[\n  {"a": "x,]}\\"y", "b": [1, {"c": null}]},\n  "Zürich",  -1.5e3 ,true,\n  [ ]\n]\n';
const EXPECTED = [
  { index: 0, line: 2, column: 3, bytes: '{"a": "x,]}\\"y", "b": [1, {"c": null}]}' },
  { index: 1, line: 3, column: 3, bytes: '"Zürich"' },
  { index: 2, line: 3, column: 14, bytes: "-1.5e3" },
  { index: 3, line: 3, column: 22, bytes: "true" },
  { index: 4, line: 4, column: 3, bytes: "[ ]" },
];

describe("ArrayElementScanner", () => {
  it("finds every element with its line and column, through strings, escapes and nesting", () => {
    expect(scan(TEXT)).toEqual({ elements: EXPECTED, failure: undefined });
  });

  it("gives the same result whatever the chunk boundaries (down to one byte, inside a UTF-8 character)", () => {
    for (const size of [1, 2, 3, 7, 64]) expect(scan(TEXT, size)).toEqual({ elements: EXPECTED, failure: undefined });
  });

  it("an empty array has no elements", () => {
    expect(scan(" [ ] \n")).toEqual({ elements: [], failure: undefined });
  });

  it.each([
    ['[{"a":1},]', "expected a value (no trailing comma before ']')", 1, 10],
    ['[{"a":1} {"b":2}]', "expected ',' or ']' after an array element", 1, 10],
    ['[{"a":1}', "unexpected end of file: ']' missing", 1, 8],
    ['[{"a":\n"1}]', "unexpected end of file inside an array element", 2, 4],
    ["[1]\n]", "unexpected text after the end of the JSON value", 2, 1],
    ["[,1]", "expected a value", 1, 2],
    ["", "the file holds no JSON value", 1, 0],
  ])("reports %j as a structure error with its position", (text, message, line, column) => {
    expect(scan(text).failure).toEqual({ message, line, column });
  });

  it("keeps the elements found before a structure error", () => {
    expect(scan('[{"a":1}, {"b":2} x]').elements.map((e) => e.bytes)).toEqual(['{"a":1}', '{"b":2}']);
  });
});
