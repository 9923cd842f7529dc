/**
 * Streams the elements of a JSON array without holding it: a byte scanner follows strings and
 * nesting (RFC 8259 §2) to find where each element starts and ends, and reports a broken structure
 * *between* elements with its line and column. The build scans .json inputs with it (and parses
 * elements on worker threads); the client scans a document's `data` part by part. Bytes only, no
 * decoding, so a chunk may end inside a UTF-8 character.
 */
const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  NEWLINE = 0x0a,
  COMMA = 0x2c;
const OPEN_ARRAY = 0x5b,
  CLOSE_ARRAY = 0x5d,
  OPEN_OBJECT = 0x7b,
  CLOSE_OBJECT = 0x7d;
const isSpace = (b: number) => b === 0x20 || b === NEWLINE || b === 0x0d || b === 0x09;

export interface ScannedElement {
  index: number;
  /** 1-based line and column of the element's first character. */
  line: number;
  column: number;
  bytes: Uint8Array;
}

export class JsonStructureError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

type Expect = "open" | "first" | "element" | "comma-or-close" | "done";

/** Feed the file's bytes in order with `push`; call `end` at end of file. */
export class ArrayElementScanner {
  private expect: Expect = "open";
  private depth = 0;
  private inString = false;
  private escaped = false;
  private primitive = false;
  private pieces: Uint8Array[] = [];
  private start: { line: number; column: number } | undefined;
  private index = 0;
  private failure: JsonStructureError | undefined;
  private line = 1;
  private column = 0;

  /** The elements completed by this chunk; after a structure error, none (see `end`). */
  push(chunk: Uint8Array): ScannedElement[] {
    const out: ScannedElement[] = [];
    if (this.failure) return out;
    try {
      this.scan(chunk, out);
    } catch (error) {
      if (!(error instanceof JsonStructureError)) throw error;
      this.failure = error;
    }
    return out;
  }

  /** Throws the first structure error, or the end of file's if the array is not closed. */
  end(): void {
    if (this.failure) throw this.failure;
    if (this.start) this.fail("unexpected end of file inside an array element");
    if (this.expect !== "done")
      this.fail(this.expect === "open" ? "the file holds no JSON value" : "unexpected end of file: ']' missing");
  }

  private scan(chunk: Uint8Array, out: ScannedElement[]): void {
    let from = 0; // where the current element's bytes start in this chunk
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] ?? 0; // i < chunk.length: `?? 0` only satisfies the type
      if (byte === NEWLINE) {
        this.line++;
        this.column = 0;
      } else if ((byte & 0xc0) !== 0x80) this.column++; // characters, not UTF-8 continuation bytes
      if (this.start) {
        if (this.inElement(byte)) continue;
        // The element ended: a primitive just before this byte, anything else with this byte.
        const primitive = this.primitive;
        this.pieces.push(chunk.subarray(from, primitive ? i : i + 1));
        out.push({ index: this.index++, ...this.start, bytes: concat(this.pieces) });
        this.pieces = [];
        this.start = undefined;
        this.primitive = false;
        this.expect = "comma-or-close";
        if (!primitive) continue; // the byte closed the element; a primitive's delimiter is read below
      }
      if (!isSpace(byte) && this.between(byte)) from = i;
    }
    if (this.start) this.pieces.push(chunk.subarray(from));
  }

  /** A byte outside any element; true when it starts one. */
  private between(byte: number): boolean {
    switch (this.expect) {
      case "open":
        if (byte !== OPEN_ARRAY) this.fail("expected '['");
        this.expect = "first";
        return false;
      case "comma-or-close":
        if (byte === COMMA) this.expect = "element";
        else if (byte === CLOSE_ARRAY) this.expect = "done";
        else this.fail("expected ',' or ']' after an array element");
        return false;
      case "first":
        if (byte === CLOSE_ARRAY) {
          this.expect = "done";
          return false;
        }
        return this.begin(byte);
      case "element":
        if (byte === CLOSE_ARRAY) this.fail("expected a value (no trailing comma before ']')");
        return this.begin(byte);
      case "done":
        return this.fail("unexpected text after the end of the JSON value");
    }
  }

  private begin(byte: number): boolean {
    if (byte === COMMA) this.fail("expected a value");
    this.start = { line: this.line, column: this.column };
    this.depth = byte === OPEN_ARRAY || byte === OPEN_OBJECT ? 1 : 0;
    this.inString = byte === QUOTE;
    this.primitive = this.depth === 0 && !this.inString;
    return true;
  }

  /** A byte after the element's first; false when the element has ended (see `push`). */
  private inElement(byte: number): boolean {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) {
        this.inString = false;
        return this.depth > 0; // a string element ends at its closing quote
      }
      return true;
    }
    if (this.primitive) return !(isSpace(byte) || byte === COMMA || byte === CLOSE_ARRAY);
    if (byte === QUOTE) this.inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) this.depth++;
    else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) return --this.depth > 0;
    return true;
  }

  private fail(message: string): never {
    throw new JsonStructureError(message, this.line, this.column);
  }
}

/** A copy: the caller may reuse the chunks' memory. */
function concat(pieces: Uint8Array[]): Uint8Array {
  const [only] = pieces;
  if (pieces.length === 1 && only) return new Uint8Array(only);
  const out = new Uint8Array(pieces.reduce((n, piece) => n + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
