/**
 * AccountDirectory: one Durable Object per deployment (`idFromName("directory")`) that owns the
 * email → account id index. Email addresses must be unique; a single object decides that without a
 * race (KV could not: two creates would both see "free"). It is read on sign-in and by the
 * operator's `accounts list`, never on an API request, so one instance is no bottleneck.
 */
import { DurableObject } from "cloudflare:workers";
import { accept, refuse, type Outcome } from "./account-views";
import { newAccountId } from "./ids";

export const DIRECTORY_NAME = "directory";

export interface DirectoryEntry {
  id: string;
  email: string;
  name: string;
  created_at: string;
}

/** Email addresses compare case-insensitively and without surrounding spaces. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export class AccountDirectory extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL, created_at TEXT NOT NULL)",
    );
  }

  /** Claims the email for a new account; `id` lets one account exist under the same id on both deployments. */
  async register(input: { email: string; name: string; id?: string }): Promise<Outcome<DirectoryEntry>> {
    const email = normalizeEmail(input.email);
    if (this.lookup(email)) return refuse("account_exists", `An account with email ${email} already exists on this deployment.`);
    const id = input.id ?? newAccountId();
    if (this.#entry(id)) return refuse("account_exists", `Account ${id} already exists on this deployment.`);
    const entry = { id, email, name: input.name, created_at: new Date().toISOString() };
    this.ctx.storage.sql.exec("INSERT INTO accounts (id, email, name, created_at) VALUES (?, ?, ?, ?)", id, email, entry.name, entry.created_at);
    return accept(entry);
  }

  /** Undoes a registration whose account could not be initialized. */
  async unregister(id: string): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM accounts WHERE id = ?", id);
  }

  lookup(email: string): string | null {
    const rows = this.ctx.storage.sql.exec<{ id: string }>("SELECT id FROM accounts WHERE email = ?", normalizeEmail(email)).toArray();
    return rows[0]?.id ?? null;
  }

  async list(): Promise<DirectoryEntry[]> {
    return this.ctx.storage.sql
      .exec<DirectoryEntry & Record<string, SqlStorageValue>>("SELECT id, email, name, created_at FROM accounts ORDER BY created_at, id")
      .toArray();
  }

  #entry(id: string): DirectoryEntry | undefined {
    return this.ctx.storage.sql.exec<DirectoryEntry & Record<string, SqlStorageValue>>("SELECT * FROM accounts WHERE id = ?", id).toArray()[0];
  }
}
