/**
 * `requireOperator()`: the operator API (/operator/v1/*, used by `npm run operator`) answers only to
 * `Authorization: Bearer <OPERATOR_SECRET>`, a Worker secret (`wrangler secret put OPERATOR_SECRET`;
 * locally `.dev.vars` or the value the CLI injects into the worker it starts). Without the secret
 * configured, the operator API does not exist (404), so a deployment is closed by default.
 * The comparison is over SHA-256 digests in constant time, so timing reveals nothing of the secret.
 * It guards every method and path under /operator/v1 (index.ts), so without the secret an unknown
 * path or method is 401 like any other: the surface cannot be mapped anonymously. Wrong secrets are
 * counted per client address with sign-in's limit (SIGN_IN_LIMITER, 10 per 60 s, key
 * `operator:<address>`); past it every secret from that address, right or wrong, is 429 until the
 * window ends, and the lockout is logged (src/worker/limits/ip-throttle.ts).
 */
import type { MiddlewareHandler } from "hono";
import { sha256Hex } from "../../common/sha256";
import { realmOf, unauthorized } from "../auth/challenge";
import { constantTimeEqual } from "../auth/password";
import type { AppEnv } from "../http/context";
import { Problem } from "../http/problem";
import { workerEnv } from "../env";
import { clientAddressOf, countAuthFailure, throttledSeconds } from "../limits/ip-throttle";
import { SIGN_IN_WINDOW_SECONDS } from "../limits/sign-in-limit";

function tooManyFailures(seconds: number): Problem {
  return new Problem(
    "rate_limited",
    `Too many wrong operator secrets from your address. Check OPERATOR_SECRET, then retry after ${seconds} s.`,
    { headers: { "Retry-After": String(seconds) } },
  );
}

export const MIN_OPERATOR_SECRET_LENGTH = 32;

export function requireOperator(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const secret = workerEnv(c.env).OPERATOR_SECRET;
    if (!secret || secret.length < MIN_OPERATOR_SECRET_LENGTH)
      throw new Problem("not_found", `No route for ${c.req.method} ${c.req.path}.`);
    const presented = /^Bearer (\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1];
    const realm = `${realmOf(c.env.DEPLOYMENT)}-operator`;
    if (!presented)
      throw unauthorized("unauthenticated", "The operator API needs Authorization: Bearer <OPERATOR_SECRET>.", {
        realm,
        credentialSent: false,
      });
    const address = clientAddressOf(c.req.raw, c.env.CLIENT_ADDRESS_SOURCE);
    const key = address === null ? null : `operator:${address}`;
    const locked = throttledSeconds(key);
    if (locked > 0) throw tooManyFailures(locked);
    const [expected, actual] = await Promise.all([sha256Hex(secret), sha256Hex(presented)]);
    if (!constantTimeEqual(expected, actual)) {
      const wait = await countAuthFailure(c.env.SIGN_IN_LIMITER, key, {
        windowSeconds: SIGN_IN_WINDOW_SECONDS,
        surface: "operator_auth",
      });
      if (wait > 0) throw tooManyFailures(wait);
      throw unauthorized("invalid_token", "The operator secret does not match this deployment's OPERATOR_SECRET.", {
        realm,
        credentialSent: true,
      });
    }
    await next();
  };
}
