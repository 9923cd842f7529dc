/**
 * Rate-limit policies per key mode, from the `RATE_LIMITS` var of wrangler.toml (defaults like
 * Stripe's: live 100 req/s, test 25 req/s, each with a burst of one second's worth). A per-key
 * override set by an operator (`npm run keys -- limits`) lives in the key's KeyGuard and wins.
 */
import { z } from "@hono/zod-openapi";
import type { KeyMode } from "../../shared/auth/api-key";
import type { RatePolicy } from "./gcra";

export const RatePolicySchema = z.strictObject({
  rate: z.number().positive().max(1_000_000),
  burst: z.int().min(1).max(1_000_000),
});

const RateLimitsVar = z.strictObject({ live: RatePolicySchema, test: RatePolicySchema });

export const DEFAULT_RATE_LIMITS: Record<KeyMode, RatePolicy> = {
  live: { rate: 100, burst: 100 },
  test: { rate: 25, burst: 25 },
};

/** The var as last parsed: the runtime hands every request of an isolate the same object. */
let parsedVar: { value: unknown; limits: Record<KeyMode, RatePolicy> } | undefined;

/** A malformed var is a deployment mistake: fail loudly rather than run unlimited. */
export function policyForMode(rateLimits: unknown, mode: KeyMode): RatePolicy {
  if (rateLimits === undefined) return DEFAULT_RATE_LIMITS[mode];
  if (parsedVar?.value !== rateLimits) {
    const parsed = RateLimitsVar.safeParse(rateLimits);
    if (!parsed.success) {
      throw new Error(`RATE_LIMITS var is invalid: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    }
    parsedVar = { value: rateLimits, limits: parsed.data };
  }
  return parsedVar.limits[mode];
}
