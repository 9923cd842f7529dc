/**
 * Where a text stops being JSON (RFC 8259), as line and column. V8's `JSON.parse` messages do not
 * always carry a position, so on failure the text is scanned again by jsonc-parser in strict mode
 * (no comments, no trailing commas); only the first error matters.
 */
import * as jsonc from "jsonc-parser";

export interface SyntaxErrorAt {
  /** 1-based line and column (UTF-16 code units, as editors count them). */
  line: number;
  column: number;
  message: string;
}

const MESSAGES: Record<string, string> = {
  InvalidSymbol: "unexpected character (not a JSON value; strings need double quotes)",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes (no trailing comma before '}')",
  ValueExpected: "expected a value (no trailing comma before ']', nothing may be empty)",
  ColonExpected: "expected ':' after the property name",
  CommaExpected: "expected ',' between values",
  CloseBraceExpected: "expected '}' to close the object",
  CloseBracketExpected: "expected ']' to close the array",
  EndOfFileExpected: "unexpected text after the end of the JSON value",
  InvalidCommentToken: "comments are not allowed in JSON",
  UnexpectedEndOfComment: "comments are not allowed in JSON",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "incomplete number",
  InvalidUnicode: "invalid \\u escape",
  InvalidEscapeCharacter: "invalid escape sequence in a string",
  InvalidCharacter: "control character inside a string (escape it, e.g. \\n)",
};

/** Locate the syntax error of a text that `JSON.parse` rejected. */
export function locateSyntaxError(text: string, parseError: unknown): SyntaxErrorAt {
  const errors: jsonc.ParseError[] = [];
  jsonc.parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first) {
    const code = jsonc.printParseErrorCode(first.error);
    return { ...lineAndColumn(text, first.offset), message: MESSAGES[code] ?? code };
  }
  // jsonc-parser accepted what V8 refused (e.g. a lone surrogate escape): fall back on V8's words.
  const v8 = parseError instanceof Error ? parseError.message : String(parseError);
  const position = /at position (\d+)/.exec(v8);
  return { ...lineAndColumn(text, position ? Number(position[1]) : 0), message: v8 };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
