/**
 * RFC 8785 (JSON Canonicalization Scheme) for the values a catalog holds: objects, arrays, strings,
 * finite numbers, booleans and null. For these, JCS is `JSON.stringify` with object keys sorted by
 * UTF-16 code units (RFC 8785 §3.2.3): ECMAScript's number and string serialization *is* JCS's
 * (§3.2.2.2, §3.2.2.3). The tests prove byte equality with an independent JCS library.
 */
export class CanonicalizationError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

export function canonicalJson(value: unknown): string {
  return serialize(value, "$");
}

function serialize(value: unknown, path: string): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      // RFC 8785 §3.2.2.2: strings must be valid Unicode (no lone surrogates).
      if (!value.isWellFormed()) throw new CanonicalizationError(path, "string contains a lone UTF-16 surrogate");
      return JSON.stringify(value);
    case "number":
      // RFC 8785 §3.2.2.3: NaN and Infinity have no JSON form.
      if (!Number.isFinite(value)) throw new CanonicalizationError(path, `number ${value} has no JSON form`);
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) out += (i ? "," : "") + serialize(value[i], `${path}[${i}]`);
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      let out = "{";
      let first = true;
      for (const key of keys) {
        if (record[key] === undefined) continue;
        out += `${first ? "" : ","}${JSON.stringify(key)}:${serialize(record[key], `${path}.${key}`)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new CanonicalizationError(path, `${typeof value} has no JSON form`);
  }
}
