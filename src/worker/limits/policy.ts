/**
 * Rate-limit policies per key mode, from the `RATE_LIMITS` var of wrangler.toml (defaults like
 * Stripe's: live 100 req/s, test 25 req/s, each with a burst of one second's worth). A per-key
 * override set by an operator (`npm run operator -- limits`) lives in the key's SubjectGuard and wins.
 */
import { z } from "@hono/zod-openapi";
import type { KeyMode } from "../../common/auth/api-key";
import type { RatePolicy } from "./gcra";

export const RatePolicySchema = z.strictObject({
  rate: z.number().positive().max(1_000_000),
  burst: z.int().min(1).max(1_000_000),
});

/** The var's shape; src/worker/env.ts checks it with the rest of the environment. */
export const RateLimitsVar = z.strictObject({ live: RatePolicySchema, test: RatePolicySchema });

export const DEFAULT_RATE_LIMITS: Record<KeyMode, RatePolicy> = {
  live: { rate: 100, burst: 100 },
  test: { rate: 25, burst: 25 },
};

/** The checked var's policy for this mode, or the default where the var is not set. */
export function policyForMode(rateLimits: z.infer<typeof RateLimitsVar> | undefined, mode: KeyMode): RatePolicy {
  return rateLimits?.[mode] ?? DEFAULT_RATE_LIMITS[mode];
}
