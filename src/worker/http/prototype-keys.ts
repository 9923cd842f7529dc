/**
 * `__proto__` is refused as a key anywhere in a JSON body: 400 `bad_request` naming each place.
 * JSON.parse keeps it as an ordinary member, but a JavaScript object built from it (zod's records,
 * a merge patch's copy) turns the assignment into a prototype change and silently drops the key:
 * order metadata answered 201 with `{}`, and MCP tool arguments passed where any other unknown
 * key is refused. Every other name (`constructor`, `prototype`, …) is data like any other key.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { Problem } from "./problem";
import type { ValidationError } from "./validation-problem";

const PROTOTYPE_KEY = "__proto__";
const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/** The dotted path of every `__proto__` member in a parsed JSON value. */
function prototypeKeyPaths(value: unknown, path: string[] = []): string[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.keys(value).flatMap((key) => {
    const here = [...path, key];
    const nested = prototypeKeyPaths((value as Record<string, unknown>)[key], here);
    return key === PROTOTYPE_KEY ? [here.join("."), ...nested] : nested;
  });
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null; // The route answers malformed JSON in its own way.
  }
}

export function refusePrototypeKeys(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!JSON_MEDIA_TYPE.test(c.req.header("Content-Type") ?? "")) return next();
    // A copy: some routes hand the request itself on (the OAuth library reads its body).
    const text = await c.req.raw.clone().text();
    // Only a body that can spell the key (literally or with \u escapes) is parsed here.
    if (!text.includes(PROTOTYPE_KEY) && !text.includes("\\u")) return next();
    const paths = prototypeKeyPaths(parsedOrNull(text));
    if (paths.length === 0) return next();
    const message = `"${PROTOTYPE_KEY}" is not accepted as a key (a JavaScript prototype name); rename it`;
    const errors: ValidationError[] = paths.map((path) => ({ path, message, code: "bad_request" }));
    throw new Problem("bad_request", paths.map((path) => `${path}: ${message}`).join("; "), { extra: { errors } });
  };
}
