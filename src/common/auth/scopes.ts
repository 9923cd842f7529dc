/**
 * The scopes a credential can carry (docs/contract.md "Credentials").
 * One list serves API keys, OAuth consent and the OpenAPI document.
 */
import { z } from "@hono/zod-openapi";

export const SCOPES = [
  "read:catalog",
  "read:cheeses",
  "read:orders",
  "write:orders",
  "read:profile",
  "write:profile",
  "manage:webhooks",
  "read:usage",
  "read:watches",
  "write:watches",
  "admin",
] as const;
export type Scope = (typeof SCOPES)[number];

export const ScopeSchema = z.enum(SCOPES).openapi({ example: "read:catalog" });

/** Auth spec rule 5: `admin` only after an operator approved it for the account. */
export const ADMIN_SCOPE: Scope = "admin";

/** A key created without a scope list gets every scope except `admin`. */
export const DEFAULT_KEY_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope !== ADMIN_SCOPE);

/** Whether a credential with `held` may use a route that needs `needed`: `admin` implies every scope. */
export function holdsScope(held: readonly Scope[], needed: Scope): boolean {
  return held.includes(needed) || held.includes(ADMIN_SCOPE);
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The scopes of `wanted` that `held` does not include, in the canonical order. */
export function scopesMissing(held: readonly Scope[], wanted: readonly Scope[]): Scope[] {
  return SCOPES.filter((scope) => wanted.includes(scope) && !held.includes(scope));
}

/** De-duplicated, in the canonical order of `SCOPES`, so records and listings read the same. */
export function normalizeScopes(scopes: readonly Scope[]): Scope[] {
  return SCOPES.filter((scope) => scopes.includes(scope));
}
