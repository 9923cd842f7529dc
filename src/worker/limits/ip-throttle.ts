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
import { isolateMap } from "../../common/isolate-memory";

/** Must equal `simple.period` of the AUTH_FAILURE_LIMITER binding in wrangler.toml (a test pins it). */
export const AUTH_FAILURE_WINDOW_SECONDS = 10;
const MAX_REMEMBERED_IPS = 10_000;

const refusedUntil = isolateMap<string, number>();

/** The Workers rate-limiting binding, as far as this module uses it. */
export interface FailureLimiter {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/** `CLIENT_ADDRESS_SOURCE` value of a worker that runs behind Cloudflare's edge (wrangler.toml [vars]). */
export const EDGE_ADDRESS_SOURCE = "cf-connecting-ip";
/** The one address every request counts as where no platform vouches for the client's. */
export const LOCAL_ADDRESS = "local";

/**
 * The client address to hold to account. Cloudflare's edge sets CF-Connecting-IP on every request
 * and overwrites a client's, so behind the edge it is the client's address. `wrangler dev` keeps a
 * client's CF-Connecting-IP and fills it in only when absent (miniflare's entry worker), so anywhere
 * else it proves nothing: every request there is the one address `local`. Null only behind the
 * edge without the header (a test's request; the edge always sets it).
 */
export function clientAddressOf(request: Request, source: string | undefined): string | null {
  if (source === EDGE_ADDRESS_SOURCE) return request.headers.get("CF-Connecting-IP");
  return LOCAL_ADDRESS;
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

/** Where a failure happened, for the lockout log line: API credentials, the operator secret, sign-in. */
export type FailureSurface = "api_auth" | "operator_auth" | "sign_in";

/**
 * Counts one failed authentication under `key` (the address, or the address with a surface
 * prefix); returns the seconds to refuse it for, or 0 if still under the limit. The moment a key
 * goes over, one warn line says so (the key and the surface, never a credential).
 */
export async function countAuthFailure(
  limiter: FailureLimiter | undefined,
  key: string | null,
  options: { now?: number; windowSeconds?: number; surface?: FailureSurface } = {},
): Promise<number> {
  const { now = Date.now(), windowSeconds = AUTH_FAILURE_WINDOW_SECONDS, surface = "api_auth" } = options;
  if (!limiter || key === null) return 0;
  const remembered = throttledSeconds(key, now);
  if (remembered > 0) return remembered;
  const { success } = await limiter.limit({ key });
  if (success) return 0;
  if (refusedUntil.size >= MAX_REMEMBERED_IPS) refusedUntil.clear();
  refusedUntil.set(key, now + windowSeconds * 1000);
  logLockout(surface, key, windowSeconds);
  return windowSeconds;
}

/** One line per lockout, for alerting (docs/operations.md): which surface, which address, for how long. */
export function logLockout(surface: FailureSurface, key: string, seconds: number): void {
  console.warn(JSON.stringify({ level: "warn", event: "lockout", surface, client: key, retry_after_seconds: seconds }));
}

/** For an address over the limit: may one more credential be checked against storage? */
export async function mayCheckWhileThrottled(limiter: FailureLimiter | undefined, ip: string | null): Promise<boolean> {
  if (!limiter || ip === null) return true;
  return (await limiter.limit({ key: `verify:${ip}` })).success;
}
