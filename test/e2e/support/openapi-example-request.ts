/**
 * The request Swagger UI's "Try it out" sends for an operation as /docs prefills it: each
 * parameter that has an `example` (its own or its schema's) filled in, the others left out; the
 * body from the media type's example, else sampled from its schema as Swagger UI samples one
 * (`example`, `default`, first `enum` value, a format's stock value, the type's stock value; every
 * property, each array one item); `Accept` the first media type of the success answer; the key as
 * the bearer token where the operation is protected.
 */
type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  enum?: unknown[];
  format?: string;
  minimum?: number;
  readOnly?: boolean;
};

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: Schema;
}

interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

export interface ExampleOperation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, unknown> }>;
  security?: Record<string, string[]>[];
}

interface ExampleRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

type Resolve = (ref: string) => Schema;

/** Resolves a `#/components/…` reference in `document`. */
export const refResolver =
  (document: object): Resolve =>
  (ref) =>
    ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, document as Schema);

/** Swagger UI's stock values of a string format (swagger-ui's sample generator). */
const FORMATS: Record<string, () => string> = {
  email: () => "user@example.com",
  uri: () => "https://example.com/",
  url: () => "https://example.com/",
  uuid: () => "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  "date-time": () => new Date().toISOString(),
  date: () => new Date().toISOString().slice(0, 10),
};

function sample(schema: Schema, resolve: Resolve): unknown {
  if (schema.$ref) return sample(resolve(schema.$ref), resolve);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => sample(part, resolve)));
  const first = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (first) return sample(first, resolve);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "object" || schema.properties)
    return Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .filter(([, property]) => !property.readOnly)
        .map(([name, property]) => [name, sample(property, resolve)]),
    );
  if (type === "array") return schema.items ? [sample(schema.items, resolve)] : [];
  if (type === "integer" || type === "number") return schema.minimum ?? 0;
  if (type === "boolean") return true;
  if (type === "null") return null;
  return FORMATS[schema.format ?? ""]?.() ?? "string";
}

const exampleOf = (parameter: Parameter) => parameter.example ?? parameter.schema?.example;

function body(operation: ExampleOperation, resolve: Resolve): { type: string; text: string } | undefined {
  const [type, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  if (!type || !media) return undefined;
  const value =
    media.example ?? Object.values(media.examples ?? {})[0]?.value ?? (media.schema && sample(media.schema, resolve));
  if (type === "application/x-www-form-urlencoded")
    return { type, text: new URLSearchParams(Object.entries(value as Record<string, string>)).toString() };
  return { type, text: JSON.stringify(value) };
}

function acceptOf(operation: ExampleOperation): string | undefined {
  const success = Object.entries(operation.responses)
    .filter(([status]) => /^2/.test(status))
    .sort(([a], [b]) => a.localeCompare(b))
    .find(([, response]) => response.content);
  return success?.[1].content ? Object.keys(success[1].content)[0] : undefined;
}

/** The request "Try it out" sends for `method path`; an error if a required parameter has no example to prefill. */
export function exampleRequest(
  method: string,
  path: string,
  operation: ExampleOperation,
  resolve: Resolve,
  apiKey: string,
): ExampleRequest {
  const headers: Record<string, string> = {};
  const query = new URLSearchParams();
  let filled = path;
  for (const parameter of operation.parameters ?? []) {
    const example = exampleOf(parameter);
    if (example === undefined) {
      if (parameter.required) throw new Error(`${method} ${path}: ${parameter.name} is required and has no example`);
      continue;
    }
    if (parameter.in === "path") filled = filled.replace(`{${parameter.name}}`, encodeURIComponent(String(example)));
    else if (parameter.in === "query") query.set(parameter.name, String(example));
    else if (parameter.in === "header") headers[parameter.name] = String(example);
  }
  const accept = acceptOf(operation);
  if (accept) headers.Accept = accept;
  if (operation.security?.some((requirement) => Object.keys(requirement).length > 0))
    headers.Authorization = `Bearer ${apiKey}`;
  const content = body(operation, resolve);
  if (content) headers["Content-Type"] = content.type;
  const search = query.size ? `?${query}` : "";
  return { path: `${filled}${search}`, method: method.toUpperCase(), headers, body: content?.text };
}
