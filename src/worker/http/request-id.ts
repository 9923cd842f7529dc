/**
 * Gives every request an id, returned in the `Request-Id` header of every response and in every
 * problem body, so a user can quote it in a support request.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";

export const REQUEST_ID_HEADER = "Request-Id";

export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = `req_${crypto.randomUUID().replaceAll("-", "")}`;
    c.set("requestId", id);
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, id);
  };
}
