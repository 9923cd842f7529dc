/**
 * If-Match on a route that never sends an ETag (/v1/keys, /v2/cheeses). RFC 9110 §13.1.1: the
 * condition holds for `*` when the resource exists, and for a list of tags only if one matches the
 * current representation's; none has a tag here, so a list always fails, and the method must not
 * be performed: 412 before any state changes. The catalog routes, which do send ETags, evaluate
 * If-Match against them instead (src/worker/catalog/conditional.ts).
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { Problem } from "./problem";

export function noEntityTags(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const ifMatch = c.req.header("If-Match");
    if (ifMatch !== undefined && ifMatch.trim() !== "*") {
      throw new Problem(
        "precondition_failed",
        `If-Match lists entity tags, but ${c.req.path} has no ETag for one to match; send If-Match: * or none.`,
      );
    }
    await next();
  };
}
