/**
 * One access-log line per request, written when the response is ready: a single JSON object, so
 * Workers Logs indexes every field and `wrangler tail` shows it whole. It names the request (the
 * `request_id` a problem+json body quotes), the matched route pattern (never the raw path, whose
 * ids and query strings can carry codes or tokens), the status, who asked (key id or OAuth grant
 * id, never a credential) and how long the worker took to produce the response.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./context";

export interface AccessLogLine {
  level: "info";
  message: "request";
  request_id: string;
  method: string;
  /** The route pattern that answered, e.g. `/v1/releases/:release_id`; null when no route matched. */
  route: string | null;
  status: number;
  key_id?: string;
  grant_id?: string;
  account_id?: string;
  /** Until the response headers were ready (a streamed body may flow for longer). */
  duration_ms: number;
}

export function accessLog(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = Date.now();
    try {
      await next();
    } finally {
      console.log(JSON.stringify(lineOf(c, Date.now() - started)));
    }
  };
}

function lineOf(c: Context<AppEnv>, durationMs: number): AccessLogLine {
  const principal = c.get("principal");
  return {
    level: "info",
    message: "request",
    request_id: c.get("requestId"),
    method: c.req.method,
    route: routeOf(c),
    status: c.res.status,
    ...(principal?.kind === "api_key" ? { key_id: principal.keyId } : {}),
    ...(principal?.kind === "access_token" ? { grant_id: principal.subject } : {}),
    ...(principal ? { account_id: principal.accountId } : {}),
    duration_ms: durationMs,
  };
}

/** The pattern of the handler that produced the response; app-wide middleware (`/*`) is no route. */
export function routeOf(c: Context<AppEnv>): string | null {
  const path = matchedRoutes(c)[c.req.routeIndex]?.path;
  return path === undefined || path === "*" || path === "/*" ? null : path;
}
