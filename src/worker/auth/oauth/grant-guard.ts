/**
 * An OAuth grant's SubjectGuard (src/worker/limits/subject-guard.ts): one Durable Object per grant, named
 * `grant_<grantId>`, holding its rate limiter, its revoked flag, whether its authorization code
 * was redeemed and which refresh tokens it rotated away. Strongly consistent, unlike the library's KV records, so every decision that must
 * not race or lag is taken there. Structural, so that Node code importing the provider (the
 * operator CLI) needs no worker types.
 */

/** The SubjectGuard name of an OAuth grant: one rate limiter and revoked flag per grant. */
export const grantSubject = (grantId: string) => `grant_${grantId}`;

/** What the OAuth code asks of a grant's SubjectGuard. */
export interface GrantGuard {
  claimAuthorizationCode(): Promise<boolean>;
  revoke(): Promise<unknown>;
  describe(): Promise<{ revoked: boolean }>;
}
