/**
 * The origin a request reached this deployment at, taken from configuration and never from the
 * Host header alone. `PUBLIC_ORIGINS` (wrangler.toml `[vars]`, one list per `[env]`) names every
 * origin the deployment answers at; a request for any other host gets 400 `unknown_host` before a
 * route runs, so a forged Host can never become the OAuth issuer, a token's audience, the `iss` of
 * a redirect or a server URL in /openapi.json. Each listed origin is its own issuer (the OAuth
 * library binds the issuer to the origin its endpoints are served at, RFC 8414 §3.3).
 *
 * Loopback origins (localhost, 127.0.0.0/8, [::1]; any port) are always served, as themselves:
 * that is how `wrangler dev`, `npm start` and the tests run. A deployed worker only receives the
 * hostnames Cloudflare routes to it (workers.dev, routes, custom domains), never a loopback one.
 */
import type { Context, MiddlewareHandler } from "hono";
import { isLoopbackHost } from "../../common/auth/redirect-uri";
import type { AppEnv } from "./context";
import { Problem } from "./problem";

/** The configured origins, normalized (`https://API.example:443/` → `https://api.example`). */
export function configuredOrigins(setting: unknown): string[] {
  const entries = typeof setting === "string" ? setting.split(/[\s,]+/) : Array.isArray(setting) ? setting : [];
  return entries.flatMap((entry) => {
    if (typeof entry !== "string" || !URL.canParse(entry)) return [];
    const { origin } = new URL(entry);
    return origin === "null" ? [] : [origin];
  });
}

/** The public origin for a request URL, or null when this deployment does not answer there. */
export function publicOriginOf(requestUrl: string, setting: unknown): string | null {
  const url = new URL(requestUrl);
  if (isLoopbackHost(url.hostname)) return url.origin;
  return configuredOrigins(setting).find((origin) => origin === url.origin) ?? null;
}

function unknownHost(requestOrigin: string, setting: unknown): Problem {
  const origins = configuredOrigins(setting);
  const served =
    origins.length > 0
      ? `answers only at ${origins.join(", ")}`
      : "has no PUBLIC_ORIGINS configured, so it answers only on localhost";
  return new Problem(
    "unknown_host",
    `This deployment ${served}, not at ${requestOrigin.slice(0, 200)}. Send the request to ${origins[0] ?? "http://localhost"}.`,
  );
}

/**
 * The origin to name in an answer to any request, even one refused as unknown_host (then the
 * deployment's first configured origin: never an origin the client made up).
 */
export function answeringOrigin(c: Context<AppEnv>): string {
  return c.var.publicOrigin ?? configuredOrigins(c.env.PUBLIC_ORIGINS)[0] ?? "http://localhost";
}

/** Sets `publicOrigin` for every later handler, or refuses the request. */
export function publicOrigin(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = publicOriginOf(c.req.url, c.env.PUBLIC_ORIGINS);
    if (!origin) throw unknownHost(new URL(c.req.url).origin, c.env.PUBLIC_ORIGINS);
    c.set("publicOrigin", origin);
    await next();
  };
}
