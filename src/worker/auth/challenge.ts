/**
 * The 401 and 403 problems of the Bearer scheme, each with its `WWW-Authenticate` challenge
 * (RFC 6750 §3): `realm` always, `error="invalid_token"` when a credential was sent (§3.1),
 * `error="insufficient_scope"` plus the `scope` needed on 403.
 */
import { Problem } from "../http/problem";
import type { ProblemCode } from "../http/problem-types";
import type { Scope } from "../../common/auth/scopes";

/** The realm names the deployment, so a client can tell production and sandbox challenges apart. */
export const realmOf = (deployment: string) => `readiness-catalog-${deployment}`;

/** RFC 6750 §3: error_description is a quoted-string limited to %x20-21 / %x23-5B / %x5D-7E. */
const quotable = (text: string) => text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "");

export function bearerChallenge(realm: string, params: Record<string, string> = {}): string {
  const attributes = [`realm="${quotable(realm)}"`];
  for (const [name, value] of Object.entries(params)) attributes.push(`${name}="${quotable(value)}"`);
  return `Bearer ${attributes.join(", ")}`;
}

/** 401 with the challenge; `credentialSent` decides whether `error="invalid_token"` is included. */
export function unauthorized(
  code: ProblemCode,
  detail: string,
  options: { realm: string; credentialSent: boolean },
): Problem {
  const params: Record<string, string> = options.credentialSent
    ? { error: "invalid_token", error_description: detail }
    : {};
  return new Problem(code, detail, { headers: { "WWW-Authenticate": bearerChallenge(options.realm, params) } });
}

/** 403 `insufficient_scope` naming the scope the route needs (RFC 6750 §3.1). */
export function insufficientScope(scope: Scope, realm: string, detail: string): Problem {
  return new Problem("insufficient_scope", detail, {
    headers: { "WWW-Authenticate": bearerChallenge(realm, { error: "insufficient_scope", scope }) },
    extra: { required_scope: scope },
  });
}
