/**
 * `requireScope(scope)`: the last of the three middleware of a protected route. A valid credential
 * without the scope gets 403 `insufficient_scope` naming it (RFC 6750 §3.1), with
 * `WWW-Authenticate: Bearer realm="…", error="insufficient_scope", scope="…"`.
 * `admin` implies every other scope (docs/contract.md "Scopes"): it passes every route.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context";
import { insufficientScope, realmOf } from "./challenge";
import type { Principal } from "./principal";
import { ADMIN_SCOPE, holdsScope, type Scope } from "../../common/auth/scopes";

export function requireScope(scope: Scope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get("principal");
    if (!holdsScope(principal.scopes, scope))
      throw insufficientScope(scope, realmOf(c.env.DEPLOYMENT), missingScopeDetail(principal, scope));
    await next();
  };
}

function missingScopeDetail(p: Principal, scope: Scope): string {
  const holder = p.kind === "api_key" ? `The API key ending in ${p.last4}` : "This access token";
  const held = p.scopes.length ? p.scopes.join(", ") : "no scopes";
  const fix =
    scope === ADMIN_SCOPE
      ? "The admin scope needs an operator's approval for the account first."
      : p.kind === "api_key"
        ? `Use a key that has ${scope} (POST /v1/keys creates one).`
        : `Ask the customer to authorize ${scope}.`;
  return `This request needs the ${scope} scope. ${holder} has ${held}. ${fix}`;
}
