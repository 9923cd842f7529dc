/**
 * `authenticate()`: the first of the three middleware every protected route runs (then `rateLimit`,
 * then `requireScope`). It accepts exactly `Authorization: Bearer <credential>`; an API key is
 * looked up in the KV index, any other credential goes to the OAuth access-token resolver. On
 * success the principal is in `c.get("principal")`.
 *
 * Order of work, cheapest first, so that bad requests cost no storage: header parse + key checksum
 * (pure) → prefix mode (pure) → KV read. Every failed credential is counted per client address; an
 * address over the limit gets 429 instead of 401 (src/worker/limits/ip-throttle.ts). The throttle refuses
 * failures only: a valid credential from a throttled address is admitted. Its storage check then
 * needs the address's check allowance, unless the isolate knows the key already.
 *
 * @example
 * app.get("/v2/cheeses", authenticate(), rateLimit(), requireScope("read:cheeses"), handler)
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context";
import { Problem } from "../http/problem";
import type { ProblemCode } from "../http/problem-types";
import { clientAddressOf, countAuthFailure, mayCheckWhileThrottled, throttledSeconds } from "../limits/ip-throttle";
import { resolveAccessToken } from "./access-token";
import { refusedAccessTokenDetail } from "./oauth/access-token";
import { parseAuthorization, type Credential } from "./bearer";
import { realmOf, unauthorized } from "./challenge";
import { checkableWithoutStorage, lookUpApiKey } from "./key-lookup";
import type { Principal } from "./principal";

export interface AuthenticateOptions {
  /**
   * The RFC 8707 resource an OAuth access token must be bound to, from the request's public
   * origin; default the origin itself (the REST API). API keys have no audience.
   */
  resource?: (origin: string) => string;
}

export function authenticate(options: AuthenticateOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const ip = clientAddressOf(c.req.raw, c.env.CLIENT_ADDRESS_SOURCE);
    const parsed = parseAuthorization(c.req.header("Authorization"));
    if (!parsed.ok) return refuse(c, ip, parsed.code, parsed.detail, parsed.credentialSent);

    const { credential } = parsed;
    const wait = throttledSeconds(ip);
    if (wait > 0 && !(await mayCheck(c, ip, credential))) throw ipThrottled(c, wait);
    let principal: Principal;
    if (credential.type === "api_key") {
      const found = await lookUpApiKey(c.env, credential.secret, credential.mode);
      if (!found.ok) return refuse(c, ip, found.code, found.detail, true);
      principal = found.principal;
    } else {
      const origin = c.var.publicOrigin;
      const resource = options.resource?.(origin) ?? origin;
      const resolved = await resolveAccessToken(c.env, origin, credential.token, resource);
      if (!resolved)
        return refuse(c, ip, "invalid_token", await refusedAccessTokenDetail(c.env, credential.token), true);
      principal = resolved;
    }
    c.set("principal", principal);
    await next();
  };
}

/** From a throttled address: a check without storage is free, one with storage takes the allowance. */
async function mayCheck(c: Context<AppEnv>, ip: string | null, credential: Credential): Promise<boolean> {
  if (credential.type === "api_key" && (await checkableWithoutStorage(c.env, credential.secret, credential.mode)))
    return true;
  return mayCheckWhileThrottled(c.env.AUTH_FAILURE_LIMITER, ip);
}

async function refuse(
  c: Context<AppEnv>,
  ip: string | null,
  code: ProblemCode,
  detail: string,
  credentialSent: boolean,
): Promise<never> {
  const wait = credentialSent ? await countAuthFailure(c.env.AUTH_FAILURE_LIMITER, ip) : 0;
  if (wait > 0) throw ipThrottled(c, wait);
  c.set("authRefused", true);
  throw unauthorized(code, detail, { realm: realmOf(c.env.DEPLOYMENT), credentialSent });
}

function ipThrottled(c: Context<AppEnv>, seconds: number): Problem {
  c.set("authRefused", true);
  return new Problem(
    "rate_limited",
    `Too many requests with invalid credentials from your address. Fix the Authorization header, then retry after ${seconds} s.`,
    { headers: { "Retry-After": String(seconds) } },
  );
}
