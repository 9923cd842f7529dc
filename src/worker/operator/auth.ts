/**
 * `requireOperator()`: the operator API (/operator/v1/*, used by `npm run keys`) answers only to
 * `Authorization: Bearer <OPERATOR_SECRET>`, a Worker secret (`wrangler secret put OPERATOR_SECRET`;
 * locally `.dev.vars` or the value the CLI injects into the worker it starts). Without the secret
 * configured, the operator API does not exist (404), so a deployment is closed by default.
 * The comparison is over SHA-256 digests in constant time, so timing reveals nothing of the secret.
 */
import type { MiddlewareHandler } from "hono";
import { sha256Hex } from "../../common/sha256";
import { realmOf, unauthorized } from "../auth/challenge";
import { constantTimeEqual } from "../auth/password";
import type { AppEnv } from "../http/context";
import { Problem } from "../http/problem";
import { workerEnv } from "../env";

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
    const [expected, actual] = await Promise.all([sha256Hex(secret), sha256Hex(presented)]);
    if (!constantTimeEqual(expected, actual)) {
      throw unauthorized("invalid_token", "The operator secret does not match this deployment's OPERATOR_SECRET.", {
        realm,
        credentialSent: true,
      });
    }
    await next();
  };
}
