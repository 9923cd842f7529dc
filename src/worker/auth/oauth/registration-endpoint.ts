/**
 * POST /oauth/register (RFC 7591), bounded before the library stores anything, so an anonymous
 * caller cannot fill OAUTH_KV: each address may register 10 clients an hour, and the deployment
 * 1000 a week (the TTL of an unused registration), each a GCRA budget in a SubjectGuard admitting
 * directly. Every attempt counts, valid or not. Refusals are RFC 6749 §5.2 JSON, 429 with
 * Retry-After; what is registered and refused otherwise: dynamic-registration.ts, whose check runs
 * here first so a refusal names every rule broken (the library's own checks say less).
 */
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { clientAddressOf } from "../../limits/ip-throttle";
import type { RatePolicy } from "../../limits/gcra";
import { retryAfterSeconds } from "../../limits/headers";
import { CLIENT_REGISTRATION_TTL_SECONDS, checkRegistration } from "./dynamic-registration";
import { oauthErrorResponse, serveProtocol } from "./token-endpoint";

export const REGISTRATIONS_PER_ADDRESS: RatePolicy = { rate: 10 / 3600, burst: 10 };
export const REGISTRATIONS_PER_DEPLOYMENT: RatePolicy = { rate: 1000 / CLIENT_REGISTRATION_TTL_SECONDS, burst: 1000 };
/** SubjectGuard names of the two budgets (API key ids are `key_…`, grants `grant_…`). */
export const DEPLOYMENT_REGISTRATIONS_SUBJECT = "registrations";
export const addressRegistrationsSubject = (address: string) => `registrations_${address}`;

async function admitted(c: Context<AppEnv>, subject: string, policy: RatePolicy): Promise<number> {
  const reply = await c.env.SUBJECT_GUARDS.getByName(subject).acquire({ want: 1, finished: [], policy, direct: true });
  return reply.verdict === "limited" ? retryAfterSeconds(reply.retryAfterMs) : 0;
}

export async function registrationEndpoint(c: Context<AppEnv>): Promise<Response> {
  if (c.req.method !== "POST") return serveProtocol(c, c.req.raw);
  const address = clientAddressOf(c.req.raw, c.env.CLIENT_ADDRESS_SOURCE);
  const budgets: [string, RatePolicy, string][] = [
    [DEPLOYMENT_REGISTRATIONS_SUBJECT, REGISTRATIONS_PER_DEPLOYMENT, "this deployment"],
  ];
  if (address !== null)
    budgets.unshift([addressRegistrationsSubject(address), REGISTRATIONS_PER_ADDRESS, "your address"]);
  for (const [subject, policy, whose] of budgets) {
    const wait = await admitted(c, subject, policy);
    if (wait > 0) {
      const response = oauthErrorResponse(
        "temporarily_unavailable",
        `Too many client registrations from ${whose} (at most ${policy.burst}, then ${whose === "your address" ? "10 an hour" : "1000 a week"}); retry after ${wait} s or reuse a registered client_id.`,
        429,
      );
      response.headers.set("Retry-After", String(wait));
      return response;
    }
  }
  const refused = await refusedMetadata(c.req.raw);
  if (refused) return oauthErrorResponse(refused.code, refused.description, refused.status);
  return serveProtocol(c, c.req.raw);
}

/** Our refusal of the request's metadata, when it is a JSON object; anything else is the library's to answer. */
async function refusedMetadata(request: Request) {
  const metadata: unknown = await request
    .clone()
    .json()
    .catch(() => undefined);
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return undefined;
  return checkRegistration({ clientMetadata: metadata as Record<string, unknown> });
}
