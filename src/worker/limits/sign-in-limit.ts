/**
 * Sign-in attempts per client address, across emails (password spraying): the Workers
 * rate-limiting binding `SIGN_IN_LIMITER` (wrangler.toml: 10 per 60 s). Every attempt counts,
 * right or wrong, since it is decided before the password is checked; the per-email lockout is
 * src/worker/auth/sign-in-attempts.ts.
 */
import type { FailureLimiter } from "./ip-throttle";

/** Must equal `simple.period` of the SIGN_IN_LIMITER binding in wrangler.toml (a test pins it). */
export const SIGN_IN_WINDOW_SECONDS = 60;

/** Counts one attempt from this address; false once over the limit. No address, no limit (behind the edge there always is one). */
export async function addressMayTrySignIn(
  limiter: FailureLimiter | undefined,
  clientAddress: string | null,
): Promise<boolean> {
  if (!limiter || clientAddress === null) return true;
  return (await limiter.limit({ key: clientAddress })).success;
}
