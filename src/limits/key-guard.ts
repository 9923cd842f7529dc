/**
 * KeyGuard: one Durable Object per credential subject (an API key id, or an OAuth grant id), named
 * `idFromName(subject)`. Every authenticated request asks it, so it is where the two decisions that
 * must not race live (shared/DESIGN.md "Credentials", "Rate limits"):
 * - revoked or not: strongly consistent, so a revocation is refused at the very next request at
 *   every location, whatever KV still says;
 * - admitted or not: GCRA against the subject's policy (the mode's default, or an operator override).
 *
 * The GCRA state (one TAT) lives in memory. Forgetting it is exact once the TAT has passed, and the
 * runtime only evicts an object after seconds of idleness; a TAT further ahead than that is also
 * written to storage and deleted by an alarm when it passes, so an idle object keeps no limiter
 * state. Durable state is only what an operator set: revoked, policy override, owner; plus the
 * last-used minute and, for an OAuth grant, that its authorization code was redeemed and the
 * SHA-256 of its current refresh token and of every one rotated away (reuse detection).
 */
import { DurableObject } from "cloudflare:workers";
import { gcraDecide, type RatePolicy } from "./gcra";

export type AdmissionVerdict = "allowed" | "limited" | "revoked";
export interface Admission {
  verdict: AdmissionVerdict;
  policy: RatePolicy;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
}

/** What became of a refresh-token rotation (see {@link KeyGuard.rotateRefreshToken}). */
export type RefreshRotation = "rotated" | "reused" | "revoked";
/** A refresh token as its grant knows it: the one to use next, one rotated away, or neither. */
export type RefreshTokenState = "current" | "retired" | "unknown" | "revoked";

export interface GuardDescription {
  owner: string | null;
  revoked: boolean;
  revokedAt: string | null;
  policyOverride: RatePolicy | null;
  lastUsedAt: string | null;
}

/** Below this lead an evicted object's lost TAT is already in the past (eviction needs ≥ 10 s idle). */
const PERSIST_TAT_LEAD_MS = 5_000;
const LAST_USED_RESOLUTION_MS = 60_000;

const STORED = {
  owner: "owner",
  revokedAt: "revoked_at",
  policy: "policy",
  lastUsed: "last_used",
  tat: "tat",
  codeRedeemed: "code_redeemed",
  refreshCurrent: "refresh_current",
} as const;
const retiredRefreshKey = (tokenId: string) => `refresh_retired:${tokenId}`;

export class KeyGuard extends DurableObject<Env> {
  #tat: number | undefined;
  #revokedAt: number | undefined;
  #policyOverride: RatePolicy | undefined;
  #lastUsed: number | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const kv = ctx.storage.kv;
    this.#tat = kv.get<number>(STORED.tat);
    this.#revokedAt = kv.get<number>(STORED.revokedAt);
    this.#policyOverride = kv.get<RatePolicy>(STORED.policy);
    this.#lastUsed = kv.get<number>(STORED.lastUsed);
  }

  /** Decides one request. `defaultPolicy` is the mode's policy; an operator override wins. */
  async admit(defaultPolicy: RatePolicy): Promise<Admission> {
    const policy = this.#policyOverride ?? defaultPolicy;
    if (this.#revokedAt !== undefined) return { verdict: "revoked", policy, remaining: 0, resetMs: 0, retryAfterMs: 0 };
    const now = Date.now();
    const decision = gcraDecide(this.#tat, now, policy);
    if (!decision.allowed) {
      return { verdict: "limited", policy, remaining: 0, resetMs: decision.resetMs, retryAfterMs: decision.retryAfterMs };
    }
    this.#tat = decision.tat;
    if (decision.tat - now > PERSIST_TAT_LEAD_MS) await this.#persistTat(decision.tat);
    this.#recordUse(now);
    return { verdict: "allowed", policy, remaining: decision.remaining, resetMs: decision.resetMs, retryAfterMs: 0 };
  }

  /** Idempotent; returns the description after revocation. */
  async revoke(): Promise<GuardDescription> {
    this.#markRevoked();
    return this.describe();
  }

  /**
   * An OAuth grant's one authorization code may be redeemed once (RFC 6749 §4.1.2): true for the
   * first call only, false for every later one and once revoked. The read and the write are
   * synchronous storage calls with no await between them, so concurrent redemptions cannot both
   * pass (the library's own check is a KV read, then a write).
   */
  async claimAuthorizationCode(): Promise<boolean> {
    if (this.#revokedAt !== undefined || this.ctx.storage.kv.get(STORED.codeRedeemed) !== undefined) return false;
    this.ctx.storage.kv.put(STORED.codeRedeemed, Date.now());
    return true;
  }

  /**
   * An OAuth grant's refresh token `issued` replaces `presented` (null at the code exchange), which
   * is retired for good (RFC 9700 §4.14.2). A `presented` token retired already is a reuse: two
   * parties hold the grant's tokens, so the grant is revoked here and then. No await between the
   * read and the writes, so of concurrent rotations of one token exactly one is "rotated".
   */
  async rotateRefreshToken(presented: string | null, issued: string): Promise<RefreshRotation> {
    if (this.#revokedAt !== undefined) return "revoked";
    const kv = this.ctx.storage.kv;
    if (presented !== null) {
      if (kv.get(retiredRefreshKey(presented)) !== undefined) {
        this.#markRevoked();
        return "reused";
      }
      kv.put(retiredRefreshKey(presented), Date.now());
    }
    kv.put(STORED.refreshCurrent, issued);
    return "rotated";
  }

  async refreshTokenState(tokenId: string): Promise<RefreshTokenState> {
    if (this.#revokedAt !== undefined) return "revoked";
    if (this.ctx.storage.kv.get(STORED.refreshCurrent) === tokenId) return "current";
    return this.ctx.storage.kv.get(retiredRefreshKey(tokenId)) === undefined ? "unknown" : "retired";
  }

  /** Records which account the subject belongs to, so an operator can act on a key id alone. */
  async bindOwner(owner: string): Promise<void> {
    this.ctx.storage.kv.put(STORED.owner, owner);
  }

  /** `null` removes the override and returns the subject to its mode's default. */
  async setPolicyOverride(policy: RatePolicy | null): Promise<GuardDescription> {
    this.#policyOverride = policy ?? undefined;
    if (policy) this.ctx.storage.kv.put(STORED.policy, policy);
    else this.ctx.storage.kv.delete(STORED.policy);
    this.#tat = undefined;
    this.ctx.storage.kv.delete(STORED.tat);
    return this.describe();
  }

  async describe(): Promise<GuardDescription> {
    const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
    return {
      owner: this.ctx.storage.kv.get<string>(STORED.owner) ?? null,
      revoked: this.#revokedAt !== undefined,
      revokedAt: iso(this.#revokedAt),
      policyOverride: this.#policyOverride ?? null,
      lastUsedAt: iso(this.#lastUsed),
    };
  }

  /** Limiter state whose TAT has passed is worth nothing: drop it. */
  override async alarm(): Promise<void> {
    const stored = this.ctx.storage.kv.get<number>(STORED.tat);
    if (stored === undefined) return;
    if (stored <= Date.now()) this.ctx.storage.kv.delete(STORED.tat);
    else await this.ctx.storage.setAlarm(stored);
  }

  #markRevoked(): void {
    if (this.#revokedAt !== undefined) return;
    this.#revokedAt = Date.now();
    this.ctx.storage.kv.put(STORED.revokedAt, this.#revokedAt);
  }

  async #persistTat(tat: number): Promise<void> {
    this.ctx.storage.kv.put(STORED.tat, tat);
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm < tat) await this.ctx.storage.setAlarm(tat);
  }

  /** Minute resolution: at most one storage write per subject per minute. */
  #recordUse(now: number): void {
    const minute = Math.floor(now / LAST_USED_RESOLUTION_MS) * LAST_USED_RESOLUTION_MS;
    if (this.#lastUsed === minute) return;
    this.#lastUsed = minute;
    this.ctx.storage.kv.put(STORED.lastUsed, minute);
  }
}
