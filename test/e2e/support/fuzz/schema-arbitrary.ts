/**
 * fast-check arbitraries of the values a JSON Schema (OpenAPI 3.1's dialect) accepts: what the
 * fuzzer sends as valid path parameters and bodies. Covers the keywords /openapi.json uses.
 */
import fc from "fast-check";

export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

export type Resolve = (ref: string) => Schema;

export function arbitraryOf(schema: Schema, resolve: Resolve): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryOf(resolve(schema.$ref), resolve);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => arbitraryOf(choice, resolve)));
  if (schema.allOf)
    return arbitraryOf(
      Object.assign({}, ...schema.allOf.map((part) => (part.$ref ? resolve(part.$ref) : part))),
      resolve,
    );
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties ? "object" : "string")];
  return fc.oneof(...types.map((type) => ofType(type, schema, resolve)));
}

function ofType(type: string, schema: Schema, resolve: Resolve): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case "array":
      return fc.array(arbitraryOf(schema.items ?? {}, resolve), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case "object":
      return fc.record(
        Object.fromEntries(
          Object.entries(schema.properties ?? {}).map(([name, property]) => [name, arbitraryOf(property, resolve)]),
        ),
        { requiredKeys: schema.required ?? [] },
      );
    default:
      return stringOf(schema);
  }
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const length = { minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 200) };
  if (!schema.pattern) return fc.string({ unit: "grapheme-ascii", ...length });
  return fc
    .stringMatching(new RegExp(schema.pattern))
    .filter((text) => text.length >= length.minLength && text.length <= (schema.maxLength ?? Infinity));
}
