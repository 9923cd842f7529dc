/**
 * JSON records in KV, read through a zod schema instead of a cast. A record that is not JSON or
 * not of the schema's shape is treated as absent (and logged): never trusted, and never a 500 for
 * the client whose request happened to read it.
 */
import type { z } from "@hono/zod-openapi";
import { retryTransient } from "../../common/transient";

/** The part of a KV namespace this needs (also satisfied by the CLI's platform proxy). */
export interface TextStore {
  get(key: string): Promise<string | null>;
}

/** `text` parsed and checked; null for null and for anything corrupt. `what` names the record in the log. */
export function parseStoredJson<T>(text: string | null, schema: z.ZodType<T>, what: string): T | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  console.error(JSON.stringify({ level: "error", message: `A stored ${what} record is corrupt; treated as absent.` }));
  return null;
}

export async function readStoredJson<T>(
  kv: TextStore,
  key: string,
  schema: z.ZodType<T>,
  what: string,
): Promise<T | null> {
  return parseStoredJson(await retryTransient(() => kv.get(key)), schema, what);
}
