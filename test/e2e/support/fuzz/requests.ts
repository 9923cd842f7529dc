/**
 * The requests the fuzzer sends to one operation of /openapi.json: path parameters and bodies
 * valid by the document (from schema-arbitrary.ts) or not (any text, any JSON, another media
 * type; a path parameter is never empty, `.` or `..`: those are other paths), conditional and range headers from a pool of valid and malformed values, and one of
 * three credentials: none, the test server's key, or a made-up one.
 */
import fc from "fast-check";
import { arbitraryOf, type Resolve, type Schema } from "./schema-arbitrary";

export interface Parameter {
  name: string;
  in: string;
  schema?: Schema;
}
export interface Operation {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<
    string,
    { headers?: Record<string, { required?: boolean }>; content?: Record<string, { schema?: Schema }> }
  >;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const ascii = (maxLength: number, minLength = 0) => fc.string({ unit: "grapheme-ascii", minLength, maxLength });
const ENTITY_TAGS = fc.oneof(fc.constantFrom("*", '"sha256:x"', 'W/"a", "b"', ""), ascii(30));
const HEADER_VALUES: Record<string, fc.Arbitrary<string>> = {
  Range: fc.oneof(
    fc.constantFrom(
      "bytes=0-9",
      "bytes=-5",
      "bytes=10-",
      "bytes=0-0,2-3",
      "bytes=999999999-",
      "bytes=-0",
      "items=0-1",
      "bytes=5-1",
    ),
    ascii(30),
  ),
  "If-Range": ENTITY_TAGS,
  "If-None-Match": ENTITY_TAGS,
  "If-Match": ENTITY_TAGS,
};

export function requestsFor(
  method: string,
  path: string,
  op: Operation,
  resolve: Resolve,
  apiKey: string,
): fc.Arbitrary<FuzzRequest> {
  const pathParams = (op.parameters ?? []).filter((p) => p.in === "path");
  const headerParams = (op.parameters ?? []).filter((p) => p.in === "header");
  const credential = fc.constantFrom<string | null>(
    null,
    apiKey,
    "sk_live_made0up0key0that0fails0its0checksum0",
    "Basic Zm9vOmJhcg==",
  );
  return fc
    .record({
      params: fc.record(
        Object.fromEntries(
          pathParams.map((p) => [
            p.name,
            // "." and ".." are dot segments: every URL parser removes them (RFC 3986 §5.2.4), so no
            // client can send them as a path parameter, whichever arbitrary drew them.
            fc
              .oneof(arbitraryOf(p.schema ?? {}, resolve).map(String), ascii(20, 1))
              .filter((text) => text !== "." && text !== ".."),
          ]),
        ),
      ),
      headers: fc.record(Object.fromEntries(headerParams.map((p) => [p.name, HEADER_VALUES[p.name] ?? ascii(30)])), {
        requiredKeys: [],
      }),
      body: op.requestBody ? bodyFor(op.requestBody.content, resolve) : fc.constant(undefined),
      credential: op.security.length > 0 ? credential : fc.constant(null),
    })
    .map(({ params, headers, body, credential: secret }) => ({
      method: method.toUpperCase(),
      path: path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] as string)),
      headers: {
        ...(headers as Record<string, string>),
        ...(secret ? { Authorization: secret.startsWith("Basic") ? secret : `Bearer ${secret}` } : {}),
        ...(body ? { "Content-Type": body.type } : {}),
      },
      ...(body ? { body: body.text } : {}),
    }));
}

function bodyFor(
  content: Record<string, { schema?: Schema }>,
  resolve: Resolve,
): fc.Arbitrary<{ type: string; text: string } | undefined> {
  const valid = Object.entries(content).map(([type, { schema }]) =>
    arbitraryOf(schema ?? {}, resolve).map((value) => ({ type, text: encode(type, value) })),
  );
  const invalid = fc.oneof(
    fc.jsonValue().map((value) => ({ type: "application/json", text: JSON.stringify(value) })),
    fc
      .tuple(fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded"), ascii(40))
      .map(([type, text]) => ({ type, text })),
    // Past the OAuth endpoints' 16 KiB form limit, and past the app's 64 KiB body limit.
    fc
      .constantFrom(20_000, 70_000)
      .chain((size) =>
        fc.constantFrom(...Object.keys(content)).map((type) => ({ type, text: `a=${"x".repeat(size)}` })),
      ),
  );
  return fc.oneof(
    { arbitrary: fc.oneof(...valid), weight: 3 },
    { arbitrary: invalid, weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

function encode(type: string, value: unknown): string {
  if (type !== "application/x-www-form-urlencoded") return JSON.stringify(value);
  return new URLSearchParams(
    Object.entries(value as Record<string, unknown>).map(([name, field]) => [name, String(field)]),
  ).toString();
}
