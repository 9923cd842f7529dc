/**
 * AccountCore: the authentication half of the AccountObject, one Durable Object per account
 * (`getByName(account_id)`), the source of truth for the account and its keys (docs/storage.md
 * "Accounts and API keys"). It writes the KV index the edge reads (`apikey:<SHA-256>` → record) and
 * tells each key's SubjectGuard when it is revoked. The deployed class (src/worker/account/) adds
 * the customer's profile and orders, which auth knows nothing of.
 *
 * Why here: the "at most 3 active keys" rule is a read-then-write. SQLite calls on a Durable Object
 * are synchronous, so counting and inserting happen with no await between them and concurrent
 * creates cannot interleave; the KV write after the insert only publishes what is already decided.
 */
import { DurableObject } from "cloudflare:workers";
import { expectDefined } from "../../common/expect";
import { generateApiKey, hashApiKey, type KeyMode } from "../../common/auth/api-key";
import {
  accept,
  refuse,
  wrongKeyModeDetail,
  type AccountView,
  type KeyView,
  type Outcome,
  type Role,
} from "./account-views";
import { AccountTables, rolesOf, scopesOf, type AccountRow, type KeyRow } from "./account-tables";
import { newKeyId } from "../../common/auth/ids";
import { keyIndexName, type KeyRecord } from "./key-record";
import { hashPassword } from "./password";
import { ADMIN_SCOPE, DEFAULT_KEY_SCOPES, normalizeScopes, scopesMissing, type Scope } from "../../common/auth/scopes";

export const MAX_ACTIVE_KEYS = 3;
export const NO_ACCOUNT = "No such account on this deployment.";

export interface NewAccount {
  id: string;
  name: string;
  email: string;
  roles: Role[];
  password: string;
}
export interface NewKey {
  mode: KeyMode;
  name?: string | null;
  scopes?: Scope[];
}
/** What a sign-in checks the password against (sign-in.ts); null for an object without an account. */
export type SignInRecord = { account: AccountView; password: string } | null;

export class AccountCore extends DurableObject<Env> {
  #tables: AccountTables;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#tables = new AccountTables(ctx.storage.sql);
  }

  async initialize(input: NewAccount): Promise<Outcome<AccountView>> {
    if (this.#tables.account()) return refuse("account_exists", `Account ${input.id} already exists.`);
    const password = await hashPassword(input.password);
    if (this.#tables.account()) return refuse("account_exists", `Account ${input.id} already exists.`);
    this.#tables.insertAccount({ ...input, password, created_at: new Date().toISOString() });
    return this.account();
  }

  async account(): Promise<Outcome<AccountView>> {
    const row = this.#tables.account();
    return row ? accept(viewOfAccount(row)) : refuse("account_not_found", "No such account on this deployment.");
  }

  async approveAdmin(): Promise<Outcome<AccountView>> {
    if (!this.#tables.account()) return refuse("account_not_found", "No such account on this deployment.");
    this.#tables.setAdminApproved();
    return this.account();
  }

  /**
   * Withdraws the account's admin clearance: no new key may carry `admin`, and every active key that
   * carries it is revoked (through its SubjectGuard, so at once), since otherwise it would keep admin.
   */
  async withdrawAdmin(): Promise<Outcome<{ account: AccountView; revoked: KeyView[] }>> {
    if (!this.#tables.account()) return refuse("account_not_found", "No such account on this deployment.");
    this.#tables.setAdminApproved(false);
    const holders = this.#tables.keys().filter((row) => row.status === "active" && scopesOf(row).includes(ADMIN_SCOPE));
    const revoked: KeyView[] = [];
    for (const row of holders) {
      const outcome = await this.revokeKey(row.id);
      if (outcome.ok) revoked.push(outcome.value);
    }
    const account = expectDefined(this.#tables.account(), "the account row, present when withdrawAdmin began");
    return accept({ account: viewOfAccount(account), revoked });
  }

  async createKey(input: NewKey): Promise<Outcome<{ key: KeyView; secret: string }>> {
    const account = this.#tables.account();
    if (!account) return refuse("account_not_found", "No such account on this deployment.");
    if (input.mode !== this.env.KEY_MODE) {
      return refuse("wrong_key_mode", wrongKeyModeDetail(this.env, input.mode));
    }
    const scopes = normalizeScopes(input.scopes ?? DEFAULT_KEY_SCOPES);
    if (scopes.includes(ADMIN_SCOPE) && !account.admin_approved) {
      return refuse(
        "admin_not_approved",
        "The admin scope needs an operator's approval for this account (npm run operator -- approve-admin).",
      );
    }
    // From here to the insert there is no await: the count and the insert are one atomic step.
    const active = this.#tables.activeKeyCount();
    if (active >= MAX_ACTIVE_KEYS) {
      return refuse(
        "key_limit_reached",
        `This account already has ${active} active keys (at most ${MAX_ACTIVE_KEYS}). Revoke one first: DELETE /v1/keys/{id}.`,
      );
    }
    const { secret, last4 } = generateApiKey(input.mode);
    const row: KeyRow = {
      id: newKeyId(input.mode),
      name: input.name ?? null,
      mode: input.mode,
      scopes: JSON.stringify(scopes),
      status: "active",
      created_at: new Date().toISOString(),
      revoked_at: null,
      last4,
      key_hash: "",
      last_used_at: null,
    };
    this.#tables.insertKey(row);
    try {
      row.key_hash = await hashApiKey(secret);
      this.#tables.setKeyHash(row.id, row.key_hash);
      await this.env.SUBJECT_GUARDS.getByName(row.id).bindOwner(account.id);
      await this.#publish(account.id, row);
    } catch (error) {
      this.#tables.deleteKey(row.id);
      throw error;
    }
    return accept({ key: viewOfKey(row, null), secret });
  }

  async listKeys(): Promise<Outcome<KeyView[]>> {
    if (!this.#tables.account()) return refuse("account_not_found", "No such account on this deployment.");
    const rows = this.#tables.keys();
    const lastUsed = await Promise.all(
      rows.map((row) =>
        row.status === "active"
          ? this.env.SUBJECT_GUARDS.getByName(row.id)
              .describe()
              .then((d) => d.lastUsedAt)
          : row.last_used_at,
      ),
    );
    return accept(rows.map((row, i) => viewOfKey(row, lastUsed[i] ?? null)));
  }

  /** Revokes through the SubjectGuard first: from that moment no request with the key is admitted. */
  async revokeKey(keyId: string, options: { withinScopes?: readonly Scope[] } = {}): Promise<Outcome<KeyView>> {
    const row = this.#tables.key(keyId);
    if (!row) return refuse("key_not_found", `No key ${keyId} on this account.`);
    const scopes = scopesOf(row);
    const beyond = options.withinScopes ? scopesMissing(options.withinScopes, scopes) : [];
    if (beyond.length > 0) {
      return refuse(
        "key_not_manageable",
        `Key ${keyId} holds ${beyond.join(", ")}, which the calling key does not; use a key with at least the same scopes.`,
      );
    }
    if (row.status === "revoked") return accept(viewOfKey(row, row.last_used_at));
    const guard = await this.env.SUBJECT_GUARDS.getByName(keyId).revoke();
    this.#tables.markRevoked(keyId, guard.revokedAt ?? new Date().toISOString(), guard.lastUsedAt);
    const revoked = expectDefined(this.#tables.key(keyId), `key ${keyId}, just marked revoked`);
    const account = expectDefined(this.#tables.account(), `the account row of key ${keyId}`);
    await this.#publish(account.id, revoked);
    return accept(viewOfKey(revoked, revoked.last_used_at));
  }

  /** The account and its password hash, for the sign-in's check (attempts are counted per email by the directory). */
  async signInRecord(): Promise<SignInRecord> {
    const account = this.#tables.account();
    return account ? { account: viewOfAccount(account), password: account.password } : null;
  }

  /**
   * The account, for the parts of the customer's data this object also hosts (src/worker/account/):
   * they keep their own tables in this object's SQLite and need only who the account is.
   */
  protected accountView(): AccountView | undefined {
    const row = this.#tables.account();
    return row ? viewOfAccount(row) : undefined;
  }

  /** The edge's view of a key: written on create and on revoke (hash → record). */
  async #publish(accountId: string, row: KeyRow): Promise<void> {
    const record: KeyRecord = {
      key_id: row.id,
      account_id: accountId,
      mode: row.mode,
      scopes: scopesOf(row),
      status: row.status,
      created_at: row.created_at,
      last4: row.last4,
    };
    await this.env.AUTH_KV.put(keyIndexName(row.key_hash), JSON.stringify(record));
  }
}

function viewOfAccount(row: AccountRow): AccountView {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    roles: rolesOf(row),
    admin_approved: row.admin_approved === 1,
    created_at: row.created_at,
  };
}

/**
 * The SubjectGuard records the minute of the last use (the start of it), which precedes created_at
 * for a key used in the minute it was created: never show a use before the creation.
 */
const notBefore = (createdAt: string, lastUsedAt: string | null) =>
  lastUsedAt !== null && lastUsedAt < createdAt ? createdAt : lastUsedAt;

function viewOfKey(row: KeyRow, lastUsedAt: string | null): KeyView {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    scopes: scopesOf(row),
    status: row.status,
    last4: row.last4,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
    last_used_at: notBefore(row.created_at, lastUsedAt),
  };
}
