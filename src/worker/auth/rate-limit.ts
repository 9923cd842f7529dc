/**
 * `rateLimit()`: after `authenticate`, admits the request from this isolate's lease of the
 * principal's SubjectGuard (one Durable Object per key or OAuth grant; src/worker/limits/lease-book.ts), which
 * asks the SubjectGuard only when the lease is spent or ends. Three answers: revoked (401, whatever the
 * KV index still says), limited (429 with Retry-After; nothing else runs: no KV or R2 read), or
 * allowed. Every response past this point carries `RateLimit-Policy` and `RateLimit`.
 */
import type { Context, MiddlewareHandler } from "hono";
import { realmOf, unauthorized } from "./challenge";
import type { Principal } from "./principal";
import type { AppEnv } from "../http/context";
import { Problem } from "../http/problem";
import { rateLimitPolicyValue, rateLimitValue, retryAfterSeconds } from "../limits/headers";
import { LeaseBook, type AdmissionContext } from "../limits/lease-book";
import { workerEnv } from "../env";
import { policyForMode } from "../limits/policy";

/** This isolate's leases, for every subject it serves. */
const leases = new LeaseBook();

export function rateLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get("principal");
    const admission = await leases.admit(principal.subject, admissionContext(c, principal));
    if (admission.verdict === "revoked") {
      throw unauthorized(principal.kind === "api_key" ? "revoked_api_key" : "invalid_token", revokedDetail(principal), {
        realm: realmOf(c.env.DEPLOYMENT),
        credentialSent: true,
      });
    }
    const limitHeaders = {
      "RateLimit-Policy": rateLimitPolicyValue(admission.policy),
      RateLimit: rateLimitValue(admission.remaining, admission.resetMs),
    };
    if (admission.verdict === "limited") {
      const seconds = retryAfterSeconds(admission.retryAfterMs);
      throw new Problem(
        "rate_limited",
        `Rate limit of ${admission.policy.rate} requests/s (burst ${admission.policy.burst}) exceeded for ${subjectName(principal)}. Retry after ${seconds} s.`,
        { headers: { ...limitHeaders, "Retry-After": String(seconds) } },
      );
    }
    try {
      await next();
    } catch (error) {
      // A refusal further down this route's chain (e.g. 403 insufficient_scope) carries them too.
      if (!(error instanceof Problem)) throw error;
      throw new Problem(error.code, error.detail, {
        ...error.options,
        headers: { ...limitHeaders, ...error.options.headers },
      });
    }
    for (const [name, value] of Object.entries(limitHeaders)) c.res.headers.set(name, value);
  };
}

function admissionContext(c: Context<AppEnv>, principal: Principal): AdmissionContext {
  return {
    source: () => c.env.SUBJECT_GUARDS.getByName(principal.subject),
    policy: policyForMode(workerEnv(c.env).RATE_LIMITS, principal.mode),
    waitUntil: (work) => c.executionCtx.waitUntil(work),
  };
}

const subjectName = (p: Principal) => (p.kind === "api_key" ? `the API key ending in ${p.last4}` : "this OAuth grant");

function revokedDetail(p: Principal): string {
  return p.kind === "api_key"
    ? `The API key ending in ${p.last4} (${p.keyId}) was revoked. Use another active key.`
    : "The OAuth grant behind this access token was revoked. Ask the customer to authorize the app again.";
}
