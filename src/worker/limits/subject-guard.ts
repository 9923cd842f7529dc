/**
 * SubjectGuard: one Durable Object per credential subject (an API key id, or an OAuth grant id), named
 * `idFromName(subject)`. It is where the two decisions that must not race live:
 * - revoked or not: strongly consistent, whatever KV still says. Isolates admit from short leases
 *   (`acquire`); revoking refuses every renewal at once and `revoke()` returns only when no lease
 *   granted before it can admit any more (≤ LEASE_TTL_MS), so a revocation is final everywhere
 *   when it returns. A strict subject (`setStrict`) gets no leases: every request asks here.
 * - admitted or not: GCRA with leases (src/worker/limits/lease-ledger.ts) against the subject's policy
 *   (the mode's default, or an operator override).
 *
 * The ledger (one TAT and the outstanding leases) lives in memory. Forgetting it is exact once the
 * TAT has passed and the leases have ended, and the runtime only evicts an object after seconds of
 * idleness; a TAT further ahead than that is also written to storage and deleted by an alarm when
 * it passes, so an idle object keeps no limiter state. Durable state is only what an operator set:
 * revoked, policy override, strict, owner; plus the last-used minute and, for an OAuth grant, that
 * its authorization code was redeemed and the SHA-256 of its current refresh token and of every
 * one rotated away (reuse detection).
 */
import { DurableObject } from "cloudflare:workers";
import { z } from "@hono/zod-openapi";
import type { RatePolicy } from "./gcra";
import { answerLease, LeaseLedger } from "./lease-ledger";
import { LEASE_TTL_MS, type LeaseReply, type LeaseRequest } from "./lease-protocol";
import { RatePolicySchema } from "./policy";

/** What became of a refresh-token rotation (see {@link SubjectGuard.rotateRefreshToken}). */
export type RefreshRotation = "rotated" | "reused" | "revoked";
/** A refresh token as its grant knows it: the one to use next, one rotated away, or neither. */
export type RefreshTokenState = "current" | "retired" | "unknown" | "revoked";

export interface GuardDescription {
  owner: string | null;
  revoked: boolean;
  revokedAt: string | null;
  policyOverride: RatePolicy | null;
  /** Every request asks the SubjectGuard (no leases): a revocation holds from the very next request. */
  strict: boolean;
  lastUsedAt: string | null;
}

/** Below this lead an evicted object's lost TAT is already in the past (eviction needs ≥ 10 s idle). */
const PERSIST_TAT_LEAD_MS = 5_000;
const LAST_USED_RESOLUTION_MS = 60_000;

const STORED = {
  owner: "owner",
  revokedAt: "revoked_at",
  policy: "policy",
  strict: "strict",
  lastUsed: "last_used",
  tat: "tat",
  codeRedeemed: "code_redeemed",
  refreshCurrent: "refresh_current",
} as const;
const retiredRefreshKey = (tokenId: string) => `refresh_retired:${tokenId}`;

/** A stored value of its schema's type; anything else counts as absent (only `read` asks storage for typed values). */
const read = <T>(kv: SyncKvStorage, key: string, schema: z.ZodType<T>): T | undefined =>
  schema.safeParse(kv.get(key)).data;

/** A revocation mark that is not a time still revokes (at the epoch): a corrupt mark never reopens a key. */
function storedRevokedAt(kv: SyncKvStorage): number | undefined {
  return kv.get(STORED.revokedAt) === undefined ? undefined : (read(kv, STORED.revokedAt, z.number()) ?? 0);
}

export class SubjectGuard extends DurableObject<Env> {
  #ledger: LeaseLedger;
  #revokedAt: number | undefined;
  #policyOverride: RatePolicy | undefined;
  #strict: boolean;
  #lastUsed: number | undefined;
  /** Leases an earlier instance of this object may have granted end by then (it was in use within the last minute). */
  readonly #inheritedLeasesEndAt: number;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const kv = ctx.storage.kv;
    this.#ledger = new LeaseLedger(read(kv, STORED.tat, z.number()));
    this.#revokedAt = storedRevokedAt(kv);
    this.#policyOverride = read(kv, STORED.policy, RatePolicySchema);
    this.#strict = read(kv, STORED.strict, z.boolean()) ?? false;
    this.#lastUsed = read(kv, STORED.lastUsed, z.number());
    const now = Date.now();
    const recentlyUsed = this.#lastUsed !== undefined && now < this.#lastUsed + LAST_USED_RESOLUTION_MS + LEASE_TTL_MS;
    this.#inheritedLeasesEndAt = recentlyUsed ? now + LEASE_TTL_MS : 0;
  }

  /**
   * An isolate's request for admissions: a lease of up to `want`, or for a strict subject one
   * direct admission. Finished leases come back with it. `policy` is the mode's; an override wins.
   */
  async acquire(request: LeaseRequest): Promise<LeaseReply> {
    const policy = this.#policyOverride ?? request.policy;
    if (this.#revokedAt !== undefined) return { verdict: "revoked", policy, resetMs: 0, othersResetMs: 0 };
    const now = Date.now();
    const reply = answerLease(this.#ledger, now, policy, request, this.#strict);
    if (reply.verdict !== "allowed") return reply;
    const tat = this.#ledger.tat;
    if (tat !== undefined && tat - now > PERSIST_TAT_LEAD_MS) await this.#persistTat(tat);
    this.#recordUse(now);
    return reply;
  }

  /** Idempotent; returns the description after revocation. */
  async revoke(): Promise<GuardDescription> {
    this.#markRevoked();
    await this.#leasesEnded();
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
    this.#ledger.restart();
    this.ctx.storage.kv.delete(STORED.tat);
    await this.#leasesEnded();
    return this.describe();
  }

  /** Strict: no more leases, every request asks here. Returns once the leases granted before have ended. */
  async setStrict(strict: boolean): Promise<GuardDescription> {
    this.#strict = strict;
    if (strict) this.ctx.storage.kv.put(STORED.strict, true);
    else this.ctx.storage.kv.delete(STORED.strict);
    await this.#leasesEnded();
    return this.describe();
  }

  async describe(): Promise<GuardDescription> {
    const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
    return {
      owner: read(this.ctx.storage.kv, STORED.owner, z.string()) ?? null,
      revoked: this.#revokedAt !== undefined,
      revokedAt: iso(this.#revokedAt),
      policyOverride: this.#policyOverride ?? null,
      strict: this.#strict,
      lastUsedAt: iso(this.#lastUsed),
    };
  }

  /** Limiter state whose TAT has passed is worth nothing: drop it. */
  override async alarm(): Promise<void> {
    const stored = read(this.ctx.storage.kv, STORED.tat, z.number());
    if (stored === undefined) return;
    if (stored <= Date.now()) this.ctx.storage.kv.delete(STORED.tat);
    else await this.ctx.storage.setAlarm(stored);
  }

  #markRevoked(): void {
    if (this.#revokedAt !== undefined) return;
    this.#revokedAt = Date.now();
    this.ctx.storage.kv.put(STORED.revokedAt, this.#revokedAt);
  }

  /** Waits until no lease granted so far can admit any more (at most LEASE_TTL_MS). */
  async #leasesEnded(): Promise<void> {
    const wait = Math.max(this.#ledger.leasesEndAt, this.#inheritedLeasesEndAt) - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
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
