/**
 * The limit state every authenticated response carries, in the fields of the IETF httpapi draft
 * "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy`
 * describes the quota (`q` requests per `w` seconds), `RateLimit` the state now (`r` remaining,
 * `t` seconds until the quota is whole again). And `Retry-After` (RFC 9110 §10.2.3) on 429.
 */
import type { RatePolicy } from "./gcra";

export const POLICY_NAME = "default";

/** GCRA with rate ρ and burst b behaves as a quota of b requests per b/ρ seconds. */
export function rateLimitPolicyValue(policy: RatePolicy): string {
  return `"${POLICY_NAME}";q=${policy.burst};w=${Math.max(1, Math.ceil(policy.burst / policy.rate))}`;
}

/** `t` is rounded up: the quota is never announced whole before it is. */
export function rateLimitValue(remaining: number, resetMs: number): string {
  return `"${POLICY_NAME}";r=${remaining};t=${Math.ceil(resetMs / 1000)}`;
}

/** Whole seconds, rounded up and at least 1: never earlier than the moment a retry can succeed. */
export const retryAfterSeconds = (retryAfterMs: number): number => Math.max(1, Math.ceil(retryAfterMs / 1000));
