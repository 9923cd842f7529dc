/**
 * Floods of invalid credentials, limited per client address (issue: "abuse of the unauthenticated
 * path"). Every request that sent a credential which failed is counted (a missing header costs
 * nothing and guesses nothing, so it is not) with the Workers rate-limiting binding
 * (`AUTH_FAILURE_LIMITER`, wrangler.toml: 30 per 10 s); past the limit a failure is answered 429.
 * The isolate also remembers an address over the limit until the window ends, so its later
 * failures are refused without even asking the binding.
 *
 * Only failures are refused: a valid credential from that address (a neighbour behind the same
 * NAT) is still admitted. A well-formed credential has to be checked to know which it is, so while
 * the address is over the limit such checks get their own allowance of the same size
 * (`verify:<address>`); beyond it the answer is 429 without a storage read.
 */

/** Must equal `simple.period` of the AUTH_FAILURE_LIMITER binding in wrangler.toml (a test pins it). */
export const AUTH_FAILURE_WINDOW_SECONDS = 10;
const MAX_REMEMBERED_IPS = 10_000;

const refusedUntil = new Map<string, number>();

/** The Workers rate-limiting binding, as far as this module uses it. */
export interface FailureLimiter {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/**
 * Cloudflare sets CF-Connecting-IP on every request at the edge (a client cannot spoof it there),
 * and `wrangler dev` sets it locally. Without it there is no address to hold to account: null.
 */
export function clientIpOf(request: Request): string | null {
  return request.headers.get("CF-Connecting-IP");
}

/** Seconds this address must still wait, or 0. Pure memory: no I/O. */
export function throttledSeconds(ip: string | null, now = Date.now()): number {
  if (ip === null) return 0;
  const until = refusedUntil.get(ip);
  if (until === undefined) return 0;
  if (until <= now) {
    refusedUntil.delete(ip);
    return 0;
  }
  return Math.ceil((until - now) / 1000);
}

/** Counts one failed authentication; returns the seconds to refuse this address for, or 0 if still under the limit. */
export async function countAuthFailure(limiter: FailureLimiter | undefined, ip: string | null, now = Date.now()): Promise<number> {
  if (!limiter || ip === null) return 0;
  const remembered = throttledSeconds(ip, now);
  if (remembered > 0) return remembered;
  const { success } = await limiter.limit({ key: ip });
  if (success) return 0;
  if (refusedUntil.size >= MAX_REMEMBERED_IPS) refusedUntil.clear();
  refusedUntil.set(ip, now + AUTH_FAILURE_WINDOW_SECONDS * 1000);
  return AUTH_FAILURE_WINDOW_SECONDS;
}

/** For an address over the limit: may one more credential be checked against storage? */
export async function mayCheckWhileThrottled(limiter: FailureLimiter | undefined, ip: string | null): Promise<boolean> {
  if (!limiter || ip === null) return true;
  return (await limiter.limit({ key: `verify:${ip}` })).success;
}
