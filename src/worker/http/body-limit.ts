/**
 * No route reads more than a small JSON document or form (the largest, an OAuth form, is capped
 * at 16 KiB by its endpoint), so a body past 64 KiB is refused before anything parses or holds it:
 * 413 (RFC 9110 §15.5.14). Without this, a client could make the worker parse megabytes of JSON,
 * which on Cloudflare ends in the isolate's memory limit, not in an answer.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./context";
import { Problem } from "./problem";

export const MAX_BODY_BYTES = 64 * 1024;

export function limitBodies(): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new Problem(
        "content_too_large",
        `The request body is larger than ${MAX_BODY_BYTES} bytes; no request to this API needs more.`,
      );
    },
  });
}
