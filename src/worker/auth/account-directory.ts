/**
 * AccountDirectory: one Durable Object per deployment (`idFromName("directory")`) that owns the
 * email → account id index. Email addresses must be unique; a single object decides that without a
 * race (KV could not: two creates would both see "free"). It is read on sign-in and by the
 * operator's `accounts list`, never on an API request, so one instance is no bottleneck.
 *
 * It also counts sign-in attempts per email, whether or not an account has the email
 * (sign-in-attempts.ts), so the lockout says nothing about which emails exist; its alarm deletes
 * expired attempt records.
 */
import { DurableObject } from "cloudflare:workers";
import { accept, refuse, type Outcome } from "./account-views";
import { newAccountId } from "../../common/auth/ids";
import { normalizeEmail } from "./email";
import { emailHashOf, FORGET_AFTER_MS, SignInAttempts } from "./sign-in-attempts";

export const DIRECTORY_NAME = "directory";

/** Locked: try again later. Admitted: check the password of `accountId` (null: no such account); if it fails, the email is locked for `lockSeconds` (0: not yet). */
export type SignInAdmission =
  | { admitted: false; retryAfterSeconds: number }
  | { admitted: true; accountId: string | null; lockSeconds: number };

export interface DirectoryEntry {
  id: string;
  email: string;
  name: string;
  created_at: string;
}

export class AccountDirectory extends DurableObject<Env> {
  #attempts: SignInAttempts;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL, created_at TEXT NOT NULL)",
    );
    this.#attempts = new SignInAttempts(ctx.storage.sql);
  }

  /** Counts a sign-in attempt on `email` (or refuses it while the email is locked) and names its account. */
  async admitSignIn(email: string): Promise<SignInAdmission> {
    const emailHash = await emailHashOf(email);
    const now = Date.now();
    const decision = this.#attempts.admit(emailHash, now);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + FORGET_AFTER_MS);
    if (!decision.admitted) return { admitted: false, retryAfterSeconds: Math.ceil(decision.retryAfterMs / 1000) };
    return { admitted: true, accountId: this.lookup(email), lockSeconds: Math.ceil(decision.lockMs / 1000) };
  }

  /** The password matched: the email's count starts again. */
  async signInSucceeded(email: string): Promise<void> {
    this.#attempts.clear(await emailHashOf(email));
  }

  /** Deletes expired sign-in attempt records, and comes back when the next one expires. */
  override async alarm(): Promise<void> {
    const next = this.#attempts.deleteExpired(Date.now());
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }

  /** Claims the email for a new account; `id` lets one account exist under the same id on both deployments. */
  async register(input: { email: string; name: string; id?: string }): Promise<Outcome<DirectoryEntry>> {
    const email = normalizeEmail(input.email);
    if (this.lookup(email))
      return refuse("account_exists", `An account with email ${email} already exists on this deployment.`);
    const id = input.id ?? newAccountId();
    if (this.#entry(id)) return refuse("account_exists", `Account ${id} already exists on this deployment.`);
    const entry = { id, email, name: input.name, created_at: new Date().toISOString() };
    this.ctx.storage.sql.exec(
      "INSERT INTO accounts (id, email, name, created_at) VALUES (?, ?, ?, ?)",
      id,
      email,
      entry.name,
      entry.created_at,
    );
    return accept(entry);
  }

  /** Undoes a registration whose account could not be initialized. */
  async unregister(id: string): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM accounts WHERE id = ?", id);
  }

  lookup(email: string): string | null {
    const rows = this.ctx.storage.sql
      .exec<{ id: string }>("SELECT id FROM accounts WHERE email = ?", normalizeEmail(email))
      .toArray();
    return rows[0]?.id ?? null;
  }

  async list(): Promise<DirectoryEntry[]> {
    return this.ctx.storage.sql
      .exec<DirectoryEntry & Record<string, SqlStorageValue>>(
        "SELECT id, email, name, created_at FROM accounts ORDER BY created_at, id",
      )
      .toArray();
  }

  #entry(id: string): DirectoryEntry | undefined {
    return this.ctx.storage.sql
      .exec<DirectoryEntry & Record<string, SqlStorageValue>>("SELECT * FROM accounts WHERE id = ?", id)
      .toArray()[0];
  }
}
